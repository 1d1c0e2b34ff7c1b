import { handledPatterns } from '@cinetrace/bus';
import { ServicePatterns } from '@cinetrace/contracts';
import type { Type } from '@nestjs/common';
import { MediaServiceEnv } from './media-service.env';
import { MediaServiceModule } from './media-service.module';
import { InProcessJobQueue } from '@cinetrace/job-queue';
import { mediaJobSettings } from './media/media-jobs';

// ServicePatterns is what media-service subscribes to on the bus: a pattern there without a handler
// would be a request nobody answers (a 503 after the bus timeout), one handled twice a race.
describe('media-service handlers', () => {
  const { controllers = [] } = MediaServiceModule.register(new MediaServiceEnv(), {
    probes: new InProcessJobQueue(mediaJobSettings('probes', 'Probe', 1)),
    storyboards: new InProcessJobQueue(mediaJobSettings('storyboards', 'Storyboard', 1)),
    copies: new InProcessJobQueue(mediaJobSettings('copies', 'Copy', 1)),
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
