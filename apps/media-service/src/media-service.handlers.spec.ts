import { handledPatterns } from '@cinetrace/bus';
import { ServicePatterns } from '@cinetrace/contracts';
import type { Type } from '@nestjs/common';
import { MediaServiceEnv } from './media-service.env';
import { MediaServiceModule } from './media-service.module';
import { InProcessProbeQueue } from './media/in-process-probe-queue';

// ServicePatterns is what media-service subscribes to on the bus: a pattern there without a handler
// would be a request nobody answers (a 503 after the bus timeout), one handled twice a race.
describe('media-service handlers', () => {
  const { controllers = [] } = MediaServiceModule.register(new MediaServiceEnv(), {
    probes: new InProcessProbeQueue(1),
    storyboards: new InProcessProbeQueue(1),
    copies: new InProcessProbeQueue(1),
    traces: {} as never,
  });
  const handled = handledPatterns(controllers as Array<Type<unknown>>);

  it('answer exactly the patterns the service subscribes to', () => {
    expect([...handled].sort()).toEqual([...ServicePatterns['media-service']].sort());
  });

  it('have one handler per pattern', () => {
    expect(handled.filter((pattern, i) => handled.indexOf(pattern) !== i)).toEqual([]);
  });
});
