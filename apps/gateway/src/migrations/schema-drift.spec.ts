import { expectNoSchemaDrift } from '@cinetrace/testing';
import { gatewayStore } from '../gateway.module';

// The migrations are the schema; the entities must describe exactly what they make (docs/architecture.md, Persistence).
describe.each(['sqlite', 'postgres'] as const)('gateway on %s', (store) => {
  it('has entities that describe its migrated schema: TypeORM would change nothing', () => expectNoSchemaDrift(gatewayStore, store), 30_000);
});
