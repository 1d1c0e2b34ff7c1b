import { expect } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvironmentError } from './environment-error';
import { resolveSecretFiles, SECRET_VARIABLES } from './secret-files';
import { requireVariables, validateEnv } from './validate-env';
import { IsOptional, IsString, MinLength } from 'class-validator';

function problemsOf(work: () => unknown): string[] {
  try {
    work();
  } catch (err) {
    if (err instanceof EnvironmentError) return err.problems;
    throw err;
  }
  throw new Error('expected an EnvironmentError');
}

describe('resolveSecretFiles', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'secret-files-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('covers every secret the apps read', () => {
    expect(SECRET_VARIABLES).toEqual(expect.arrayContaining(['BOOTSTRAP_API_KEY', 'DATABASE_URL', 'REDIS_URL', 'KAFKA_SASL_PASSWORD', 'SECRETS_KEY']));
  });

  it('replaces NAME_FILE by NAME, set to the file content trimmed', () => {
    writeFileSync(join(dir, 'db'), 'postgres://u:p@db:5432/x\n');
    const env = resolveSecretFiles({ DATABASE_URL_FILE: join(dir, 'db'), PORT: '3000' });
    expect(env).toEqual({ DATABASE_URL: 'postgres://u:p@db:5432/x', PORT: '3000' });
  });

  it('leaves the given environment as it was', () => {
    writeFileSync(join(dir, 'key'), 'k');
    const given = { SECRETS_KEY_FILE: join(dir, 'key') };
    resolveSecretFiles(given);
    expect(given).toEqual({ SECRETS_KEY_FILE: join(dir, 'key') });
  });

  it('ignores an empty NAME_FILE and variables that are not secrets', () => {
    expect(resolveSecretFiles({ REDIS_URL: 'redis://r', REDIS_URL_FILE: '', PORT_FILE: '/nope' })).toEqual({ REDIS_URL: 'redis://r', REDIS_URL_FILE: '', PORT_FILE: '/nope' });
  });

  it('refuses a variable given both ways, naming it and not its value', () => {
    writeFileSync(join(dir, 'pw'), 'from-file');
    const problems = problemsOf(() => resolveSecretFiles({ KAFKA_SASL_PASSWORD: 'hunter2-direct', KAFKA_SASL_PASSWORD_FILE: join(dir, 'pw') }));
    expect(problems).toEqual(['KAFKA_SASL_PASSWORD: set both directly and as KAFKA_SASL_PASSWORD_FILE; keep one']);
    expect(problems.join()).not.toMatch(/hunter2|from-file/);
  });

  it('refuses a file it cannot read, naming the variable and the path', () => {
    const missing = join(dir, 'missing');
    expect(problemsOf(() => resolveSecretFiles({ BOOTSTRAP_API_KEY_FILE: missing }))).toEqual([`BOOTSTRAP_API_KEY_FILE: cannot read ${missing} (ENOENT)`]);
    expect(problemsOf(() => resolveSecretFiles({ BOOTSTRAP_API_KEY_FILE: dir }))).toEqual([`BOOTSTRAP_API_KEY_FILE: cannot read ${dir} (EISDIR)`]);
  });

  it('reports every problem at once', () => {
    expect(problemsOf(() => resolveSecretFiles({ REDIS_URL: 'redis://r', REDIS_URL_FILE: '/x', SECRETS_KEY_FILE: '/nonexistent/key' }))).toHaveLength(2);
  });

  describe('before validation', () => {
    class SecretEnv {
      @IsOptional() @IsString() @MinLength(16, { message: 'must be at least 16 characters' }) BOOTSTRAP_API_KEY?: string;
    }

    it('validateEnv validates the file content and names the variable, never the value', () => {
      writeFileSync(join(dir, 'short'), 'tooshort\n');
      const problems = problemsOf(() => validateEnv(SecretEnv, { BOOTSTRAP_API_KEY_FILE: join(dir, 'short') }));
      expect(problems).toEqual(['BOOTSTRAP_API_KEY: must be at least 16 characters']);
      writeFileSync(join(dir, 'good'), 'a-long-enough-secret-key\n');
      expect(validateEnv(SecretEnv, { BOOTSTRAP_API_KEY_FILE: join(dir, 'good') }).BOOTSTRAP_API_KEY).toBe('a-long-enough-secret-key');
    });

    it('requireVariables counts NAME_FILE as set', () => {
      writeFileSync(join(dir, 'db'), 'postgres://db/x');
      expect(() => requireVariables(['DATABASE_URL'], 'here', { DATABASE_URL_FILE: join(dir, 'db') })).not.toThrow();
      expect(() => requireVariables(['DATABASE_URL'], 'here', {})).toThrow('DATABASE_URL: required here');
    });
  });
});
