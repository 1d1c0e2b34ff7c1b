import { MAX_TAGS } from '../trace.schema';
import { METADATA_MAX_BYTES } from '../validate-trace';
import { setOwn } from '../set-own';
import { AiSdk, GenAi, OpenInference, OtelExtras, RESOURCE_METADATA_KEYS, TraceIdentity, Traceloop } from './otlp-conventions';

/**
 * The trace fields an OTel trace's spans carry, which OTel has no place for on the trace
 * itself: who it was for (`userId`), the conversation it belongs to (`sessionId`), `tags`,
 * `metadata` (OpenInference's, and the resource's service and environment), and the root
 * span's input and output as the trace's. Instrumentations put the ids, tags and metadata
 * on every span of a context (OpenInference's helpers, Traceloop's association properties)
 * or on the root only, so each is read from the root first, then from the other spans in order.
 * Values the trace model would refuse (an id over 256 characters, a tag over 100) are not taken.
 */

type Span = Record<string, unknown>;
export const SPAN_TRACE_FIELDS = ['input', 'output', 'userId', 'sessionId', 'tags', 'metadata'] as const;

const USER_ID_SOURCES = [OpenInference.UserId, ...Traceloop.UserIds, AiSdk.UserId, TraceIdentity.EndUserId];
const SESSION_ID_SOURCES = [OpenInference.SessionId, GenAi.ConversationId, ...Traceloop.SessionIds, AiSdk.SessionId];
const MAX_ID_LENGTH = 256;
const MAX_TAG_LENGTH = 100;
const MAX_RESOURCE_VALUE_LENGTH = 256;
/** Below this many characters of OpenInference metadata, the trace's metadata cannot reach its 64 KiB: not measured. */
const METADATA_CHARS_WORTH_MEASURING = 8 * 1024;

export function traceFieldsOfSpans(spans: readonly Span[], root: Span | undefined): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (root?.input !== undefined) fields.input = root.input;
  if (root?.output !== undefined) fields.output = root.output;

  const reading = new SpanReading();
  if (root) reading.read(root);
  for (const span of spans) if (span !== root) reading.read(span);
  if (reading.userId !== undefined) fields.userId = reading.userId;
  if (reading.sessionId !== undefined) fields.sessionId = reading.sessionId;
  if (reading.tags.size) fields.tags = [...reading.tags];
  const metadata = reading.metadata();
  if (metadata) fields.metadata = metadata;
  return fields;
}

/** What the spans say, gathered span by span (the first value of each wins; tags are united). */
class SpanReading {
  userId?: string;
  sessionId?: string;
  readonly tags = new Set<string>();
  private resource?: Record<string, unknown>;
  private readonly sentMetadata: Record<string, unknown> = {};
  private sentMetadataChars = 0;
  // Instrumentations repeat the same tags and metadata on every span: each text is parsed once.
  private readonly tagTexts = new Set<string>();
  private readonly metadataTexts = new Set<string>();

  read(span: Span): void {
    const a = span.attributes as Record<string, unknown> | undefined;
    if (!a) return;
    this.userId ??= idOf(a, USER_ID_SOURCES);
    this.sessionId ??= idOf(a, SESSION_ID_SOURCES);
    this.readTags(a[OpenInference.Tags]);
    this.readMetadata(a[OpenInference.Metadata]);
    if (!this.resource) {
      const resource = a[OtelExtras.Resource] as Record<string, unknown> | undefined;
      if (resource && RESOURCE_METADATA_KEYS.some((key) => resource[key] !== undefined)) this.resource = resource;
    }
  }

  private readTags(value: unknown): void {
    if (typeof value === 'string') {
      if (this.tagTexts.has(value)) return;
      this.tagTexts.add(value);
      value = parseJson(value);
    }
    if (!Array.isArray(value)) return;
    for (const tag of value) {
      if (this.tags.size >= MAX_TAGS) return;
      if (typeof tag === 'string' && tag.length >= 1 && tag.length <= MAX_TAG_LENGTH) this.tags.add(tag);
    }
  }

  private readMetadata(value: unknown): void {
    if (typeof value !== 'string' || this.metadataTexts.has(value)) return;
    this.metadataTexts.add(value);
    const parsed = parseJson(value);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return;
    this.sentMetadataChars += value.length;
    for (const [key, item] of Object.entries(parsed)) if (!Object.hasOwn(this.sentMetadata, key)) setOwn(this.sentMetadata, key, item);
  }

  /** The client's metadata, then the resource's keys (the service says which service it is); without the client's if the two pass 64 KiB. */
  metadata(): Record<string, unknown> | undefined {
    const fromResource: Record<string, unknown> = {};
    for (const key of RESOURCE_METADATA_KEYS) {
      const value = this.resource?.[key];
      if ((typeof value === 'string' && value.length <= MAX_RESOURCE_VALUE_LENGTH) || typeof value === 'number' || typeof value === 'boolean') fromResource[key] = value;
    }
    const metadata = Object.assign(this.sentMetadata, fromResource);
    if (this.sentMetadataChars >= METADATA_CHARS_WORTH_MEASURING && Buffer.byteLength(JSON.stringify(metadata)) > METADATA_MAX_BYTES) {
      return Object.keys(fromResource).length ? fromResource : undefined;
    }
    return Object.keys(metadata).length ? metadata : undefined;
  }
}

/** The first id among `keys`: a string of 1..256 characters, or a number (as its decimal string). */
function idOf(a: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = a[key];
    if (typeof value === 'string' && value.length >= 1 && value.length <= MAX_ID_LENGTH) return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
