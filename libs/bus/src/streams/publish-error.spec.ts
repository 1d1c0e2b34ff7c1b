import { ErrorCode } from '@cinetrace/contracts';
import { KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSProtocolError } from 'kafkajs';
import { publishError } from './kafka-stream.publisher';

const tooLarge = () =>
  new KafkaJSProtocolError({
    type: 'MESSAGE_TOO_LARGE',
    code: 10,
    retriable: false,
    message: 'The request included a message larger than the max message size the server will accept',
  } as never);

/** kafkajs builds it with a cause (as its retrier does), which its typings leave out. */
const NonRetriableWithCause = KafkaJSNonRetriableError as new (e: Error, options: { cause: Error }) => KafkaJSNonRetriableError;

describe('publishError', () => {
  it('answers 413 for a record the broker refuses as too large, as kafkajs surfaces it after its retrier', () => {
    const surfaced = new NonRetriableWithCause(tooLarge(), { cause: tooLarge() });
    const err = publishError(surfaced);
    expect(err.code).toBe(ErrorCode.PayloadTooLarge);
    expect(err.retryAfter).toBeUndefined();
    expect(err.detail).not.toMatch(/max message size|kafka/i);
  });

  it('answers 503 with Retry-After when the broker cannot be reached', () => {
    const err = publishError(new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:19092'));
    expect(err.code).toBe(ErrorCode.Unavailable);
    expect(err.retryAfter).toBeGreaterThanOrEqual(1);
    expect(err.detail).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  });
});
