import { ALL_IN_ONE_APP, AppProcess, aTestApiKey } from '@cinetrace/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A secret given as <NAME>_FILE is read before the environment is validated (libs/config,
// resolveSecretFiles); the distributed TLS suite starts every app with KAFKA_SASL_PASSWORD_FILE.
// Here: the process refuses to boot on a mistake, names the variable, and never prints the secret.
describe('Secrets from files: boot errors', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'cinetrace-secret-files-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const boot = async (env: Record<string, string>) => {
    const app = new AppProcess('all-in-one', ALL_IN_ONE_APP.entry, { PATH: process.env.PATH ?? '', DATA_DIR: join(dir, 'data'), PORT: '0', OTLP_GRPC_PORT: '0', ...env });
    // Cleared once the race is decided: a pending 20 s timer kept jest from exiting after the run.
    let timer: NodeJS.Timeout | undefined;
    const stillRunning = new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), 20_000)));
    const exit = await Promise.race([app.exited, stillRunning]).finally(() => clearTimeout(timer));
    if (exit === 'running') await app.stop();
    return { exit, output: app.output() };
  };

  it('refuses a secret given both directly and as a file, naming it and not its value', async () => {
    const key = aTestApiKey();
    const file = join(dir, 'key');
    writeFileSync(file, `${key}\n`);
    const { exit, output } = await boot({ BOOTSTRAP_API_KEY: key, BOOTSTRAP_API_KEY_FILE: file });
    expect(exit).toEqual({ code: 1, signal: null });
    expect(output).toContain('BOOTSTRAP_API_KEY: set both directly and as BOOTSTRAP_API_KEY_FILE');
    expect(output).not.toContain(key);
  }, 30_000);

  it('refuses a file it cannot read, naming the variable and the path', async () => {
    const missing = join(dir, 'no-such-file');
    const { exit, output } = await boot({ SECRETS_KEY_FILE: missing });
    expect(exit).toEqual({ code: 1, signal: null });
    expect(output).toContain(`SECRETS_KEY_FILE: cannot read ${missing} (ENOENT)`);
  }, 30_000);
});
