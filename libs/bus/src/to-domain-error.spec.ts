import { expect } from '@jest/globals';
import { DomainError } from '@cinetrace/contracts';
import { TimeoutError } from 'rxjs';
import { toDomainError } from './to-domain-error';

describe('toDomainError', () => {
  it('reads a service error that Kafka delivered as a JSON header buffer', () => {
    const header = Buffer.from(JSON.stringify({ code: 'conflict', detail: 'taken' }));
    expect(toDomainError(header)).toMatchObject({ code: 'conflict', detail: 'taken' });
  });

  it('treats transport failures and timeouts as unavailable, with Retry-After', () => {
    const kafkaDown = Object.assign(new Error('Connection error: connect ECONNREFUSED'), { name: 'KafkaJSConnectionError' });
    expect(toDomainError(kafkaDown)).toMatchObject({ code: 'unavailable', retryAfter: 2 });
    expect(toDomainError(new TimeoutError())).toMatchObject({ code: 'unavailable', detail: expect.stringContaining('in time') });
  });

  it('passes domain errors through untouched', () => {
    const error = DomainError.notFound('gone');
    expect(toDomainError(error)).toBe(error);
  });
});
