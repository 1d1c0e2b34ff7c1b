import { expectNoSchemaDrift } from '@cinetrace/testing';
import { mediaServiceStore } from '../media-service.module';

// The migrations are the schema; the entities must describe exactly what they make (docs/architecture.md, Persistence).
describe.each(['sqlite', 'postgres'] as const)('media-service on %s', (store) => {
  it('has entities that describe its migrated schema: TypeORM would change nothing', () => expectNoSchemaDrift(mediaServiceStore, store), 30_000);
});
