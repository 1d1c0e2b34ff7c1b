import { EnvironmentError } from './environment-error';
import { ReadFile, readFromDisk, readSettingFile } from './setting-file';

/**
 * Variables that hold a secret, or a URL with one in it. Each may instead be given as
 * `<NAME>_FILE`, the path of a file holding the value (a mounted Kubernetes or Docker
 * secret), as official images of PostgreSQL or Redis accept.
 */
export const SECRET_VARIABLES = [
  'BOOTSTRAP_API_KEY',
  'DATABASE_URL',
  'REDIS_URL',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  'SECRETS_KEY',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
] as const;

/**
 * A copy of `env` where every `<NAME>_FILE` of a secret variable is replaced by NAME, set
 * to the file's content, trimmed (files usually end with a newline). Setting both is a
 * boot error, as is a file that cannot be read; both name the variable, never a value.
 */
export function resolveSecretFiles(env: NodeJS.ProcessEnv, names: readonly string[] = SECRET_VARIABLES, read: ReadFile = readFromDisk): NodeJS.ProcessEnv {
  const resolved = { ...env };
  const problems: string[] = [];
  for (const name of names) {
    const fileVariable = `${name}_FILE`;
    const path = env[fileVariable];
    if (path === undefined || path === '') continue;
    delete resolved[fileVariable];
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name}: set both directly and as ${fileVariable}; keep one`);
      continue;
    }
    try {
      resolved[name] = readSettingFile(fileVariable, path, read).toString('utf8').trim();
    } catch (err) {
      if (!(err instanceof EnvironmentError)) throw err;
      problems.push(...err.problems);
    }
  }
  if (problems.length) throw new EnvironmentError(problems);
  return resolved;
}
