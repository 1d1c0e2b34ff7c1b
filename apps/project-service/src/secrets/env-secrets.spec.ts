import { EnvironmentError } from '@cinetrace/config';
import { EnvSecrets, ENV_SECRETS_PATTERN } from './env-secrets';

/** A stand-in for the disk: these paths exist, any other is missing. */
const files: Record<string, string> = { '/run/secrets/openai': 'sk-from-file\n', '/run/secrets/other': 'never-read' };
const read = (path: string): Buffer => {
  if (path in files) return Buffer.from(files[path]);
  throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
};
const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof EnvironmentError) return err.problems;
    throw err;
  }
  return [];
};

describe('OUTBOUND_ENV_SECRETS', () => {
  it('lists names, each optionally bound to hosts', () => {
    const good = ['OPENAI_API_KEY', 'A,B_2', 'OPENAI_API_KEY@api.openai.com', 'K@a.example.com|*.models.example.com, L', 'A@https://x.example.com:8443|http://localhost:8080'];
    for (const ok of good) {
      expect(ENV_SECRETS_PATTERN.test(ok)).toBe(true);
    }
    for (const bad of ['lower', 'A;B', 'A@https://x.example.com/', 'A@ftp://x.example.com', 'A@', '@host', 'A,,B', 'A B']) {
      expect(ENV_SECRETS_PATTERN.test(bad)).toBe(false);
    }
  });

  it('reads only listed variables, and gives their hosts', () => {
    const env = { OPENAI_API_KEY: 'sk-operator', DATABASE_URL: 'postgres://secret', BOOTSTRAP_API_KEY: 'bootstrap-secret', EMPTY: '' };
    const secrets = new EnvSecrets('OPENAI_API_KEY@api.openai.com|*.openai.azure.com, EMPTY', env);
    expect(secrets.find('OPENAI_API_KEY')).toEqual({ name: 'OPENAI_API_KEY', allowedHosts: ['api.openai.com', '*.openai.azure.com'] });
    expect(secrets.value('OPENAI_API_KEY')).toBe('sk-operator');
    expect(secrets.find('EMPTY')).toEqual({ name: 'EMPTY', allowedHosts: [] });
    expect(secrets.value('EMPTY')).toBeUndefined();
    for (const name of ['DATABASE_URL', 'BOOTSTRAP_API_KEY', 'PATH', 'constructor', '__proto__']) {
      expect(secrets.find(name)).toBeUndefined();
      expect(secrets.value(name)).toBeUndefined();
    }
    expect(new EnvSecrets(undefined, env).value('OPENAI_API_KEY')).toBeUndefined();
    expect(secrets.unbound()).toEqual(['EMPTY']);
  });

  it('takes a listed name as <NAME>_FILE too, trimmed, and reads no file of an unlisted name', () => {
    const env = { OPENAI_API_KEY_FILE: '/run/secrets/openai', OTHER_KEY_FILE: '/run/secrets/other' };
    const secrets = EnvSecrets.fromEnvironment('OPENAI_API_KEY@api.openai.com', env, read);
    expect(secrets.value('OPENAI_API_KEY')).toBe('sk-from-file');
    expect(secrets.value('OTHER_KEY')).toBeUndefined();
    expect(secrets.value('OPENAI_API_KEY_FILE')).toBeUndefined();
    const touched: string[] = [];
    EnvSecrets.fromEnvironment('OPENAI_API_KEY', env, (path) => (touched.push(path), read(path)));
    expect(touched).toEqual(['/run/secrets/openai']);
    expect(EnvSecrets.fromEnvironment(undefined, env, read).value('OTHER_KEY')).toBeUndefined();
  });

  it('stops the boot when a listed name is given both ways or its file cannot be read, naming the variable and never a value', () => {
    const both = problemsOf(() => EnvSecrets.fromEnvironment('OPENAI_API_KEY', { OPENAI_API_KEY: 'sk-direct', OPENAI_API_KEY_FILE: '/run/secrets/openai' }, read));
    expect(both).toEqual(['OPENAI_API_KEY: set both directly and as OPENAI_API_KEY_FILE; keep one']);
    const missing = problemsOf(() => EnvSecrets.fromEnvironment('OPENAI_API_KEY, B', { OPENAI_API_KEY_FILE: '/run/secrets/nope', B: 'b' }, read));
    expect(missing).toEqual(['OPENAI_API_KEY_FILE: cannot read /run/secrets/nope (ENOENT)']);
    expect(JSON.stringify([both, missing])).not.toMatch(/sk-/);
  });
});
