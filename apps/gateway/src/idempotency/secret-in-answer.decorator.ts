import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_MARK, type IdempotencyKeyMark } from './idempotency-key-mark';

export const SECRET_IN_ANSWER_METADATA = 'cinetrace:secret-in-answer';

/**
 * The route's answer holds a secret shown only once (a new API key). Such an answer is
 * never stored, so it cannot be replayed: `Idempotency-Key` is refused there (400)
 * rather than silently not honoured.
 */
export const SecretInAnswer = () => applyDecorators(SetMetadata(SECRET_IN_ANSWER_METADATA, true), ApiExtension(IDEMPOTENCY_KEY_MARK, 'refused' satisfies IdempotencyKeyMark));
