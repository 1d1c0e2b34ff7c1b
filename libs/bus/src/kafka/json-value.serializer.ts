import type { Serializer } from '@nestjs/microservices';

/**
 * Every bus payload travels as one JSON document in the Kafka message value. Nest's
 * default serializer takes any object with a `key` or `value` property for a raw
 * Kafka message (a project has a `key`), which would drop the payload.
 */
export class JsonValueSerializer implements Serializer {
  serialize(value: unknown): { value: string; headers: Record<string, string> } {
    return { value: JSON.stringify(value ?? null), headers: {} };
  }
}
