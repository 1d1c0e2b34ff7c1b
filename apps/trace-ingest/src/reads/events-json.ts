import { isoTime } from './readable-time';

/**
 * One stored event without attributes, exactly as the writer's JSON.stringify wrote it:
 * its name's JSON string and its integer epoch-ms time. Linear: a string is a run of
 * characters that are neither quote nor backslash, or escapes, with no choice between them.
 */
const PLAIN_EVENT = /\{"name":("(?:[^"\\]|\\.)*"),"time":(\d{1,16})\}/y;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * A span's stored events (epoch-ms times) as the answer writes them (ISO times), the keys
 * in their stored order. Events that are only a name and a time (a pipeline's markers:
 * `queued`, `started`) are rewritten in the text itself, cheaper than parsing and
 * serializing them; anything else (attributes, a time that is not a whole number) is
 * parsed and serialized as before.
 */
export function eventsJson(text: string | null): string {
  if (text === null) return 'null';
  return plainEventsJson(text) ?? parsedEventsJson(text);
}

/** The rewritten text when every event is a plain one (PLAIN_EVENT); null otherwise. */
function plainEventsJson(text: string): string | null {
  if (text.charCodeAt(0) !== OPEN_BRACKET) return null;
  if (text === '[]') return text;
  let out = '[';
  for (let at = 1; ;) {
    PLAIN_EVENT.lastIndex = at;
    const event = PLAIN_EVENT.exec(text);
    if (!event) return null;
    out += `{"name":${event[1]},"time":"${isoTime(Number(event[2]))}"}`;
    at = PLAIN_EVENT.lastIndex;
    const next = text.charCodeAt(at);
    if (next === CLOSE_BRACKET) return at === text.length - 1 ? `${out}]` : null;
    if (next !== COMMA) return null;
    out += ',';
    at += 1;
  }
}

function parsedEventsJson(text: string): string {
  // Rewritten in place (the objects are this parse's own): `time` keeps its place among the keys.
  const events = JSON.parse(text) as Array<{ time: number | string }>;
  for (const event of events) event.time = isoTime(event.time as number);
  return JSON.stringify(events);
}
