import { handledPatterns } from '@cinetrace/bus';
import { ServicePatterns } from '@cinetrace/contracts';
import type { Type } from '@nestjs/common';
import { PromptServiceEnv } from './prompt-service.env';
import { PromptServiceModule } from './prompt-service.module';

// ServicePatterns is what prompt-service subscribes to on the bus: a pattern there without a handler
// would be a request nobody answers (a 503 after the bus timeout), one handled twice a race.
describe('prompt-service handlers', () => {
  const { controllers = [] } = PromptServiceModule.register(new PromptServiceEnv(), {} as never);
  const handled = handledPatterns(controllers as Array<Type<unknown>>);

  it('answer exactly the patterns the service subscribes to', () => {
    expect([...handled].sort()).toEqual([...ServicePatterns['prompt-service']].sort());
  });

  it('have one handler per pattern', () => {
    expect(handled.filter((pattern, i) => handled.indexOf(pattern) !== i)).toEqual([]);
  });
});
