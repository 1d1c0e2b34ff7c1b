import { EnvironmentError, validateEnv } from '@cinetrace/config';
import { ProjectServiceEnv } from './project-service.env';
import { randomBytes } from 'node:crypto';

const base = { DATA_DIR: '/tmp/cinetrace-env-spec' };

describe('ProjectServiceEnv: INSTANCE_ADMIN_KEY_IDS', () => {
  it('is empty by default, and when set to nothing', () => {
    expect(validateEnv(ProjectServiceEnv, base).INSTANCE_ADMIN_KEY_IDS).toEqual([]);
    expect(validateEnv(ProjectServiceEnv, { ...base, INSTANCE_ADMIN_KEY_IDS: '' }).INSTANCE_ADMIN_KEY_IDS).toEqual([]);
  });

  it('reads a comma-separated list of key ids', () => {
    const ids = ['key_01jh8z6v9q3m2r7x5c4b1n0k8d', 'key_01jh8z6v9q3m2r7x5c4b1n0k8e'];
    expect(validateEnv(ProjectServiceEnv, { ...base, INSTANCE_ADMIN_KEY_IDS: ` ${ids[0]}, ${ids[1]} ` }).INSTANCE_ADMIN_KEY_IDS).toEqual(ids);
  });

  it('refuses at boot anything that is not a key id (a key pasted by mistake), without echoing it', () => {
    const pasted = 'ct_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';
    let error: unknown;
    try {
      validateEnv(ProjectServiceEnv, { ...base, INSTANCE_ADMIN_KEY_IDS: pasted });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as Error).message).toMatch(/INSTANCE_ADMIN_KEY_IDS: must list API key ids/);
    expect((error as Error).message).not.toContain(pasted);
  });
});

function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    validateEnv(ProjectServiceEnv, env);
  } catch (err) {
    if (err instanceof EnvironmentError) return err.message;
    throw err;
  }
  return '';
}

describe('ProjectServiceEnv: SECRETS_KEY and OUTBOUND_ENV_SECRETS', () => {
  it('takes a 32-byte SECRETS_KEY in hex or base64', () => {
    expect(problemsOf({ SECRETS_KEY: randomBytes(32).toString('hex') })).toBe('');
    expect(problemsOf({ SECRETS_KEY: randomBytes(32).toString('base64') })).toBe('');
    expect(problemsOf({})).toBe('');
  });

  it('refuses any other SECRETS_KEY naming the variable, never repeating its value', () => {
    for (const value of ['change-me-please-now', randomBytes(16).toString('hex'), randomBytes(31).toString('base64')]) {
      const message = problemsOf({ SECRETS_KEY: value });
      expect(message).toContain('SECRETS_KEY: must be 32 bytes as 64 hex digits or base64');
      expect(message).not.toContain(value);
    }
  });

  it('takes OUTBOUND_ENV_SECRETS empty or as names with hosts, and refuses anything else', () => {
    expect(problemsOf({ OUTBOUND_ENV_SECRETS: '' })).toBe('');
    expect(problemsOf({ OUTBOUND_ENV_SECRETS: 'OPENAI_API_KEY@api.openai.com' })).toBe('');
    expect(problemsOf({ OUTBOUND_ENV_SECRETS: 'openai key' })).toContain('OUTBOUND_ENV_SECRETS:');
  });
});
