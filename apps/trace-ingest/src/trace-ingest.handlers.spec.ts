import { handledPatterns } from '@cinetrace/bus';
import { ServicePatterns } from '@cinetrace/contracts';
import type { Type } from '@nestjs/common';
import { TraceIngestEnv } from './trace-ingest.env';
import { TraceIngestModule } from './trace-ingest.module';

// ServicePatterns is what trace-ingest subscribes to on the bus: a pattern there without a handler
// would be a request nobody answers (a 503 after the bus timeout), one handled twice a race.
describe('trace-ingest handlers', () => {
  const { controllers = [] } = TraceIngestModule.register(new TraceIngestEnv(), {} as never, {} as never);
  const handled = handledPatterns(controllers as Array<Type<unknown>>);

  it('answer exactly the patterns the service subscribes to', () => {
    expect([...handled].sort()).toEqual([...ServicePatterns['trace-ingest']].sort());
  });

  it('have one handler per pattern', () => {
    expect(handled.filter((pattern, i) => handled.indexOf(pattern) !== i)).toEqual([]);
  });
});
