import { benchmarkServiceStore } from '@cinetrace/benchmark-service';
import { gatewayStore } from '@cinetrace/gateway';
import { mediaServiceStore } from '@cinetrace/media-service';
import { projectServiceStore } from '@cinetrace/project-service';
import { promptServiceStore } from '@cinetrace/prompt-service';
import { expectNoSchemaDrift, type StoreKind } from '@cinetrace/testing';

// The migrations are the schema; the entities must describe exactly what they make (docs/architecture.md,
// Persistence). Every app with entities is here; trace-ingest has none (its tables are read by SQL only).
const apps: ReadonlyArray<readonly [string, (kind: StoreKind) => Promise<void>]> = [
  ['gateway', (kind) => expectNoSchemaDrift(gatewayStore, kind)],
  ['project-service', (kind) => expectNoSchemaDrift(projectServiceStore, kind)],
  ['prompt-service', (kind) => expectNoSchemaDrift(promptServiceStore, kind)],
  ['benchmark-service', (kind) => expectNoSchemaDrift(benchmarkServiceStore, kind)],
  ['media-service', (kind) => expectNoSchemaDrift(mediaServiceStore, kind)],
];

describe.each(apps)('%s', (_app, expectNoDrift) => {
  describe.each(['sqlite', 'postgres'] as const)('on %s', (store) => {
    it('has entities that describe its migrated schema: TypeORM would change nothing', () => expectNoDrift(store), 30_000);
  });
});
