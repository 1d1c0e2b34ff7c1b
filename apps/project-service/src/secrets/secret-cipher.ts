import { DomainError, ErrorCode, SealedSecretValue, SECRET_VALUE_MAX_BYTES, secretIntakeContext } from '@cinetrace/contracts';
import { parseSecretsKey, ReplyKeyPair, secretsKeyFromFile } from '@cinetrace/secret-crypto';
import { ProjectServiceEnv } from '../project-service.env';

/**
 * The secrets key: SECRETS_KEY (validated at boot), else the key generated once into
 * `<DATA_DIR>/secrets-key`. main.ts (the distributed mode) requires SECRETS_KEY, so only
 * the all-in-one mode falls back to the file.
 */
export function secretsKeyOf(env: ProjectServiceEnv): Buffer {
  return env.SECRETS_KEY ? parseSecretsKey(env.SECRETS_KEY)! : secretsKeyFromFile(env.DATA_DIR);
}

/** What a value is bound to at rest: a ciphertext copied onto another row does not decrypt there. */
export const atRestContext = (secret: { orgId: string; id: string; name: string }): string => `${secret.orgId}/${secret.id}/${secret.name}`;

/**
 * Opens values the gateway sealed before putting them on the bus. Its key pair is derived
 * from the secrets key, so every replica holds the same one and the gateway needs only the
 * public half (Patterns.SecretIntakeKey).
 */
export class SecretIntake {
  private readonly keys: ReplyKeyPair;

  constructor(secretsKey: Buffer) {
    this.keys = ReplyKeyPair.derivedFrom(secretsKey, 'secret intake v1');
  }

  get publicKey(): string {
    return this.keys.publicKey;
  }

  /** The value, checked again here (it was checked at the gateway, in clear). */
  open(orgId: string, sealed: SealedSecretValue): string {
    let value: string;
    try {
      value = this.keys.open(sealed, secretIntakeContext(orgId));
    } catch {
      // A gateway holding the public key of an earlier SECRETS_KEY: it asks again and retries.
      throw new DomainError(ErrorCode.PreconditionFailed, 'The sealed value does not open with the current intake key');
    }
    if (value.length === 0 || Buffer.byteLength(value, 'utf8') > SECRET_VALUE_MAX_BYTES) {
      throw DomainError.validation([{ path: 'value', message: `must be 1..${SECRET_VALUE_MAX_BYTES} bytes` }]);
    }
    return value;
  }
}
