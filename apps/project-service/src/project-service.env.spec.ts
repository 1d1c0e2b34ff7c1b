import { EnvironmentError, validateEnv } from '@cinetrace/config';
import { randomBytes } from 'node:crypto';
import { ProjectServiceEnv } from './project-service.env';

function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    validateEnv(ProjectServiceEnv, env);
  } catch (err) {
    if (err instanceof EnvironmentError) return err.message;
    throw err;
  }
  return '';
}

describe('ProjectServiceEnv', () => {
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
