import { handledPatterns } from '@cinetrace/bus';
import { ServicePatterns } from '@cinetrace/contracts';
import type { Type } from '@nestjs/common';
import { BenchmarkServiceEnv } from './benchmark-service.env';
import { BenchmarkServiceModule } from './benchmark-service.module';

// ServicePatterns is what benchmark-service subscribes to on the bus: a pattern there without a handler
// would be a request nobody answers (a 503 after the bus timeout), one handled twice a race.
describe('benchmark-service handlers', () => {
  const { controllers = [] } = BenchmarkServiceModule.register(new BenchmarkServiceEnv(), {} as never);
  const handled = handledPatterns(controllers as Array<Type<unknown>>);

  it('answer exactly the patterns the service subscribes to', () => {
    expect([...handled].sort()).toEqual([...ServicePatterns['benchmark-service']].sort());
  });

  it('have one handler per pattern', () => {
    expect(handled.filter((pattern, i) => handled.indexOf(pattern) !== i)).toEqual([]);
  });
});
