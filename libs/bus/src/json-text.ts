/**
 * A bus reply in its JSON form: the text a service wrote, or the bytes Kafka delivered. A
 * large reply (a 100-span trace is ~60 KB) goes from the service's store to the HTTP answer
 * without being parsed and serialized again on the way; `BusClient.request` parses it for
 * callers that need the value.
 */
export class JsonText {
  constructor(readonly json: string | Buffer) {}

  /**
   * The value. As Nest's Kafka parser reads a reply: objects and arrays are parsed, any
   * other text is handed over as it is (a service never answers a bare JSON scalar).
   */
  value<T>(): T {
    const text = typeof this.json === 'string' ? this.json : this.json.toString('utf8');
    return (text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text) as T;
  }
}

/** The reply's value, whether it came as built (in process) or as JSON text (Kafka). */
export function replyValue<T>(reply: unknown): T {
  return reply instanceof JsonText ? reply.value<T>() : (reply as T);
}
