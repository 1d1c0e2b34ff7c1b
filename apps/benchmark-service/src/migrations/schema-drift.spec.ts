import { expectNoSchemaDrift } from '@cinetrace/testing';
import { benchmarkServiceStore } from '../benchmark-service.module';

// The migrations are the schema; the entities must describe exactly what they make (docs/architecture.md, Persistence).
describe.each(['sqlite', 'postgres'] as const)('benchmark-service on %s', (store) => {
  it('has entities that describe its migrated schema: TypeORM would change nothing', () => expectNoSchemaDrift(benchmarkServiceStore, store), 30_000);
});
