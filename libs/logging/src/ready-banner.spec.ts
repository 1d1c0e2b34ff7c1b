import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readyBanner, readyLine } from './ready-banner';

describe('the ready banner', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ready-banner-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const facts = (over = {}) => ({
    mode: 'all-in-one' as const,
    host: '0.0.0.0',
    port: 3000,
    otlpGrpcPort: 4317,
    keyFile: join(dir, 'bootstrap-api-key'),
    keyFromEnvironment: false,
    ...over,
  });

  it('names the console, the API, OTLP and where the key file is, with a command to try it', () => {
    writeFileSync(join(dir, 'bootstrap-api-key'), 'ct_secret\n');
    const text = readyBanner(facts());
    expect(text).toContain('Console   http://localhost:3000/');
    expect(text).toContain('API       http://localhost:3000/api/v1');
    expect(text).toContain('OTLP      http://localhost:3000/v1/traces, gRPC localhost:4317');
    expect(text).toContain(`API key   in ${join(dir, 'bootstrap-api-key')}`);
    expect(text).toContain(`curl -H "Authorization: Bearer $(cat ${join(dir, 'bootstrap-api-key')})" http://localhost:3000/api/v1/projects`);
    expect(text).not.toContain('ct_secret');
  });

  it('points at the variable when the operator chose the key, and leaves out gRPC when it is off', () => {
    const text = readyBanner(facts({ keyFromEnvironment: true, otlpGrpcPort: 0, host: '127.0.0.1', port: 8080 }));
    expect(text).toContain('API key   the BOOTSTRAP_API_KEY you set');
    expect(text).toContain('$BOOTSTRAP_API_KEY');
    expect(text).toContain('OTLP      http://127.0.0.1:8080/v1/traces\n');
  });

  it('says so when the key file is gone, and sends the reader to the console', () => {
    const text = readyBanner(facts());
    expect(text).toContain('its file has been removed since');
    expect(text).toContain('open http://localhost:3000/ and sign in');
  });

  it('has a one-line form for JSON logs, without the key', () => {
    writeFileSync(join(dir, 'bootstrap-api-key'), 'ct_secret\n');
    const line = readyLine(facts({ mode: 'distributed' }));
    expect(line).toMatch(/^Ready \(distributed\): console http:\/\/localhost:3000\/, API http:\/\/localhost:3000\/api\/v1, OTLP .* and gRPC :4317; API key in /);
    expect(line).not.toContain('ct_secret');
    expect(line).not.toContain('\n');
  });
});
