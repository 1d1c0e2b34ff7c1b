import { SetMetadata } from '@nestjs/common';

export const SECRET_IN_ANSWER_METADATA = 'cinetrace:secret-in-answer';

/**
 * The route's answer holds a secret shown only once (a new API key). Such an answer is
 * never stored, so it cannot be replayed: `Idempotency-Key` is refused there (400)
 * rather than silently not honoured.
 */
export const SecretInAnswer = () => SetMetadata(SECRET_IN_ANSWER_METADATA, true);
