import { api } from '@cinetrace/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useStack } from './support/stack-hooks';

const REPO = join(__dirname, '..', '..');
const bin = (name: string) => join(REPO, 'node_modules', '.bin', name);

/**
 * The served OpenAPI document as third-party tools see it: `redocly lint` (recommended
 * rules, redocly.yaml) finds no error. Every answer of the suite is also checked against it
 * (libs/testing, openapi-conformance.ts) and a generated client drives the API
 * (generated-client.e2e-spec.ts).
 */
describe('The OpenAPI document', () => {
  const ctx = useStack();
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cinetrace-openapi-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes redocly lint with no errors', async () => {
    const doc = await api(ctx.stack.baseUrl).get('/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    const file = join(dir, 'openapi.json');
    writeFileSync(file, doc.text);
    let output: string;
    try {
      output = execFileSync(bin('redocly'), ['lint', file, '--config', join(REPO, 'redocly.yaml'), '--format=summary'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      throw new Error(`redocly lint failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
    expect(output).not.toMatch(/^error/m);
  }, 120_000);

  it('says OpenAPI 3.1 and keeps no 3.0-only keyword (nullable) nor a JWT bearer format', async () => {
    const doc = await api(ctx.stack.baseUrl).get('/api/v1/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.text).not.toContain('"nullable"');
    expect(doc.body.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.body.components.securitySchemes.bearerAuth.bearerFormat).toBeUndefined();
    expect(doc.body.components.securitySchemes.projectKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Project-Key' }));
    expect(doc.body.paths['/api/v1/traces'].get.operationId).toBe('listTraces');
  });
});
