import { RECORD_VALUE_HEADER, decodeStreamRecord, encodeStreamRecord } from './stream-record-codec';

describe('stream records as Kafka messages', () => {
  it('sends a value alone as its JSON, and reads it back', () => {
    const message = encodeStreamRecord({ key: 'p/t', value: { id: 't', n: 1 } });
    expect(message.value.toString()).toBe('{"id":"t","n":1}');
    expect(message.headers).toBeUndefined();
    expect(decodeStreamRecord({ key: Buffer.from('p/t'), value: message.value, headers: {} })).toEqual({ key: 'p/t', value: { id: 't', n: 1 } });
  });

  it('sends bytes as the message value, untouched, with the JSON value in a header', () => {
    // A view into a larger buffer: only its own bytes go.
    const backing = Buffer.from([9, 9, 0, 1, 2, 255, 9]);
    const bytes = backing.subarray(2, 6);
    const message = encodeStreamRecord({ key: 'p/t', value: { id: 't' }, bytes });
    expect([...message.value]).toEqual([0, 1, 2, 255]);
    // As kafkajs hands a consumed message over: every header value a Buffer.
    const consumed = {
      key: Buffer.from('p/t'),
      value: Buffer.from(message.value),
      headers: { [RECORD_VALUE_HEADER]: Buffer.from(message.headers![RECORD_VALUE_HEADER] as Buffer) },
    };
    const record = decodeStreamRecord<{ id: string }>(consumed);
    expect(record?.value).toEqual({ id: 't' });
    expect([...record!.bytes!]).toEqual([0, 1, 2, 255]);
  });

  it('reads a value that is not JSON as no record (the consumer sets it aside)', () => {
    expect(decodeStreamRecord({ key: null, value: Buffer.from('{"id":'), headers: {} })).toBeUndefined();
    expect(decodeStreamRecord({ key: null, value: Buffer.from([1, 2]), headers: { [RECORD_VALUE_HEADER]: Buffer.from('not json') } })).toBeUndefined();
  });

  it('reads a value holding a prototype-reaching key as no record (the consumer dead-letters it)', () => {
    const poisoned = ['{"id":"t","__proto__":{"isAdmin":true}}', '{"id":"t","spans":[{"constructor":{"prototype":{"isAdmin":true}}}]}'];
    for (const json of poisoned) {
      expect(decodeStreamRecord({ key: null, value: Buffer.from(json), headers: {} })).toBeUndefined();
      expect(decodeStreamRecord({ key: null, value: Buffer.from([1]), headers: { [RECORD_VALUE_HEADER]: Buffer.from(json) } })).toBeUndefined();
    }
    // `constructor` as plain data is data.
    expect(decodeStreamRecord({ key: null, value: Buffer.from('{"constructor":"x"}'), headers: {} })?.value).toEqual({ constructor: 'x' });
  });
});
