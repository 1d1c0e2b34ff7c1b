import { SetMetadata } from '@nestjs/common';

export const SECRET_IN_BODY_METADATA = 'cinetrace:secret-in-body';

/**
 * The route's body carries a secret in these top-level fields. They are left out of the
 * `Idempotency-Key` fingerprint: the record is kept 24 h in the gateway's database, where
 * even a hash of the value would let anyone who reads it test guesses offline.
 */
export const SecretInBody = (...fields: string[]) => SetMetadata(SECRET_IN_BODY_METADATA, fields);
