import { ServiceEnv, ToBool, ToInt, ToList } from '@cinetrace/config';
import { parseSecretsKey } from '@cinetrace/secret-crypto';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateBy } from 'class-validator';
import { ENV_SECRETS_PATTERN } from './secrets/env-secrets';

/** Environment of project-service; validated at boot (see validateEnv). */
export class ProjectServiceEnv extends ServiceEnv {
  /** A key made to exist for the bootstrap organization at every start. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  BOOTSTRAP_API_KEY?: string;

  /**
   * Ids of API keys (`key_…`, comma-separated) that are instance admins besides the
   * bootstrap key: they may create organizations. Ids, never keys, so the list is no secret.
   */
  @ToList()
  @ArrayMaxSize(100)
  @Matches(/^key_[0-9a-z]{26}$/, { each: true, message: 'must list API key ids (key_ and 26 characters), comma-separated' })
  INSTANCE_ADMIN_KEY_IDS: string[] = [];

  /**
   * The key secrets are encrypted with at rest: 32 bytes as 64 hex digits or base64.
   * Required in the distributed mode; in all-in-one, when unset, one is generated into
   * `<DATA_DIR>/secrets-key`. The message never repeats the value.
   */
  @IsOptional()
  @ValidateBy({
    name: 'secretsKey',
    validator: { validate: (v: unknown) => typeof v === 'string' && parseSecretsKey(v) !== undefined, defaultMessage: () => 'must be 32 bytes as 64 hex digits or base64' },
  })
  SECRETS_KEY?: string;

  /**
   * Environment variables an operator offers as secrets by name to every organization
   * (`OPENAI_API_KEY@api.openai.com,…`): only these can ever be read, and each only for
   * its hosts when it names some. Nothing else of the environment is ever sent anywhere.
   */
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @IsOptional()
  @Matches(ENV_SECRETS_PATTERN, { message: 'must be a comma-separated list of NAME or NAME@host|host (NAME: A-Z, 0-9, _)' })
  OUTBOUND_ENV_SECRETS?: string;

  /**
   * Local development: a secret may also go over plain http, to an allowedHosts entry that
   * says `http://` (the same switch that lets targets call private addresses).
   */
  @ToBool() @IsBoolean() OUTBOUND_ALLOW_PRIVATE = false;
}
