import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import { parse } from 'secure-json-parse';
import type { StreamRecord } from './stream.types';

/**
 * The Kafka header that holds a record's JSON value when the message's value is the record's
 * `bytes` (StreamRecord.bytes): the bytes go to the broker as they are, never inside JSON.
 */
export const RECORD_VALUE_HEADER = 'x-record-value';

/** A record as a Kafka message: its value as JSON, or, when it has bytes, those bytes with the JSON in a header. */
export function encodeStreamRecord<T>(record: StreamRecord<T>): Message & { value: Buffer } {
  // Encoded here rather than by kafkajs: the exact size is what batching counts.
  const json = Buffer.from(JSON.stringify(record.value));
  if (record.bytes === undefined) return { key: record.key, value: json };
  const bytes = record.bytes;
  return { key: record.key, value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), headers: { [RECORD_VALUE_HEADER]: json } };
}

/**
 * The record a Kafka message holds; undefined when its JSON does not parse, or holds a
 * `__proto__` key or a `constructor` with a `prototype` (the consumer dead-letters it: any
 * process that reaches the broker can write to a stream).
 */
export function decodeStreamRecord<T>(message: Pick<KafkaMessage, 'key' | 'value' | 'headers'>): StreamRecord<T> | undefined {
  const key = message.key?.toString('utf8') ?? '';
  try {
    const header = headerBytes(message.headers, RECORD_VALUE_HEADER);
    if (header === undefined) return { key, value: parseJson(message.value ?? Buffer.alloc(0)) as T };
    return { key, value: parseJson(header) as T, bytes: message.value ?? Buffer.alloc(0) };
  } catch {
    return undefined;
  }
}

function headerBytes(headers: IHeaders | undefined, name: string): Buffer | undefined {
  const value = headers?.[name];
  if (value === undefined) return undefined;
  // kafkajs reads every header value as a Buffer; a repeated header arrives as an array.
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? Buffer.from(first) : first;
}

/** JSON.parse, refusing prototype-reaching keys (secure-json-parse scans only a text that names one). */
const parseJson = (bytes: Buffer): unknown => parse(bytes.toString('utf8'), null, { protoAction: 'error', constructorAction: 'error' });
