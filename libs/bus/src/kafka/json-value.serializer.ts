import type { Serializer } from '@nestjs/microservices';
import { JsonText } from '../json-text';

/**
 * Every bus payload travels as one JSON document in the Kafka message value. Nest's
 * default serializer takes any object with a `key` or `value` property for a raw
 * Kafka message (a project has a `key`), which would drop the payload. A reply a
 * service already wrote as JSON text goes as it is.
 */
export class JsonValueSerializer implements Serializer {
  serialize(value: unknown): { value: string | Buffer; headers: Record<string, string> } {
    return { value: value instanceof JsonText ? value.json : JSON.stringify(value ?? null), headers: {} };
  }
}
