import { EnvSecrets, ENV_SECRETS_PATTERN } from './env-secrets';

describe('OUTBOUND_ENV_SECRETS', () => {
  it('lists names, each optionally bound to hosts', () => {
    for (const ok of ['OPENAI_API_KEY', 'A,B_2', 'OPENAI_API_KEY@api.openai.com', 'K@a.example.com|*.models.example.com, L']) {
      expect(ENV_SECRETS_PATTERN.test(ok)).toBe(true);
    }
    for (const bad of ['lower', 'A;B', 'A@https://x.example.com', 'A@', '@host', 'A,,B', 'A B']) {
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
});
