import { handledPatterns } from '@cinetrace/bus';
import { ServicePatterns } from '@cinetrace/contracts';
import type { Type } from '@nestjs/common';
import { ProjectServiceEnv } from './project-service.env';
import { ProjectServiceModule } from './project-service.module';

// ServicePatterns is what project-service subscribes to on the bus: a pattern there without a handler
// would be a request nobody answers (a 503 after the bus timeout), one handled twice a race.
describe('project-service handlers', () => {
  const { controllers = [] } = ProjectServiceModule.register(new ProjectServiceEnv(), { mode: 'in-process' } as never);
  const handled = handledPatterns(controllers as Array<Type<unknown>>);

  it('answer exactly the patterns the service subscribes to', () => {
    expect([...handled].sort()).toEqual([...ServicePatterns['project-service']].sort());
  });

  it('have one handler per pattern', () => {
    expect(handled.filter((pattern, i) => handled.indexOf(pattern) !== i)).toEqual([]);
  });
});
