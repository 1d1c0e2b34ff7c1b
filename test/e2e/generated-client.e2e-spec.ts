import { api } from '@cinetrace/testing';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runGeneratedClient } from './client/program';
import { repoBin, useScratchDir } from './support/scratch';
import { useStack } from './support/stack-hooks';

const CLIENT = join(__dirname, 'client');
/** The one committed copy of the generated types, in the client package the console uses too. */
const SCHEMA = join(__dirname, '..', '..', 'libs', 'api-client', 'src', 'schema.d.ts');
/**
 * The tools run without holding this process's event loop: held for the minutes tsc may take on
 * a loaded machine, the loop never saw the server close an idle kept-alive connection, and the
 * next request went out on it ("other side closed").
 */
const run = promisify(execFile);

/**
 * A client generated from the served document with openapi-typescript (types) and
 * openapi-fetch (calls), @cinetrace/api-client: the committed types are what the served
 * document generates (regenerate with the command in docs/api-reference.md when the API
 * changes), the small program on them compiles under `tsc --strict`, and it runs against
 * the service.
 */
describe('A client generated from the OpenAPI document', () => {
  const ctx = useStack();
  const scratch = useScratchDir('cinetrace-client-');

  it('is what openapi-typescript generates from the served document', async () => {
    const doc = await api(ctx.stack.baseUrl).get('/api/v1/openapi.json');
    writeFileSync(join(scratch.path, 'openapi.json'), doc.text);
    await run(repoBin('openapi-typescript'), [join(scratch.path, 'openapi.json'), '--default-non-nullable', 'false', '-o', join(scratch.path, 'schema.d.ts')]);
    expect(readFileSync(join(scratch.path, 'schema.d.ts'), 'utf8')).toBe(readFileSync(SCHEMA, 'utf8'));
  }, 60_000);

  it('compiles under tsc --strict', async () => {
    try {
      await run(repoBin('tsc'), ['-p', join(CLIENT, 'tsconfig.strict.json')], { encoding: 'utf8' });
    } catch (err) {
      throw new Error(`tsc --strict failed:\n${(err as { stdout?: string }).stdout ?? ''}`);
    }
  }, 120_000);

  it('creates a project, a prompt with labels and metadata and a trace with metadata and attributes (Prefer: wait), reads it back, lists with filters and reads a problem code', async () => {
    const client = await runGeneratedClient(ctx.stack.baseUrl, ctx.stack.apiKey);
    expect(client.projectId).toMatch(/^prj_/);
    expect(client.promptVersion).toBe(1);
    expect(client.traceStatus).toBe(201);
    expect(client.spanNames).toEqual(['render']);
    expect(client.metadata).toEqual({ pipeline: 'intro', shot: 3 });
    expect(client.spanAttributes).toEqual({ 'gen.seed': 42, 'gen.sampler': 'ddim' });
    expect(client.eventAttributes).toEqual({ frame: 0 });
    expect(client.promptLabels).toEqual(['staging']);
    expect(client.promptMetadata).toEqual({ owner: 'ops', fps: 24 });
    expect(client.listedIds).toHaveLength(1);
    expect(client.problemCode).toBe('not_found');
  }, 60_000);
});
