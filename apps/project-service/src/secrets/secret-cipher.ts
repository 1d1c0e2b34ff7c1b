import { AtRestCipher, parseSecretsKey, secretsKeyFromFile } from '@cinetrace/secret-crypto';
import { ProjectServiceEnv } from '../project-service.env';

/**
 * The cipher of secrets at rest: SECRETS_KEY (validated at boot), else the key generated
 * once into `<DATA_DIR>/secrets-key`. main.ts (the distributed mode) requires SECRETS_KEY,
 * so only the all-in-one mode falls back to the file.
 */
export function secretCipherFrom(env: ProjectServiceEnv): AtRestCipher {
  return new AtRestCipher(env.SECRETS_KEY ? parseSecretsKey(env.SECRETS_KEY)! : secretsKeyFromFile(env.DATA_DIR));
}

/** What a value is bound to at rest: a ciphertext copied onto another row does not decrypt there. */
export const atRestContext = (secret: { orgId: string; id: string; name: string }): string => `${secret.orgId}/${secret.id}/${secret.name}`;
