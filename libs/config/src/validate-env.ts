import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { EnvironmentError } from './environment-error';
import { resolveSecretFiles } from './secret-files';

export { EnvironmentError };

/**
 * Reads the environment into one typed class per app, applying its defaults, and fails
 * fast naming each missing or wrong variable (never its value: it may be a secret).
 * Secrets given as `<NAME>_FILE` are read first (see resolveSecretFiles).
 */
export function validateEnv<T extends object>(schema: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const config = plainToInstance(schema, resolveSecretFiles(env), { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false, whitelist: false });
  if (errors.length) {
    throw new EnvironmentError(
      errors.map((e) => {
        const messages = Object.values(e.constraints ?? {}).map((m) => m.replace(`${e.property} `, ''));
        return `${e.property}: ${messages.join('; ')}`;
      }),
    );
  }
  return config;
}

/**
 * Fails naming every variable of `names` that is unset or empty (for what one run mode needs);
 * a secret given as `<NAME>_FILE` counts as set.
 */
export function requireVariables(names: string[], why: string, env: NodeJS.ProcessEnv = process.env): void {
  const resolved = resolveSecretFiles(env);
  const missing = names.filter((name) => !resolved[name]?.trim());
  if (missing.length) throw new EnvironmentError(missing.map((name) => `${name}: required ${why}`));
}
