'use strict';
// OTLP/HTTP protobuf bodies for bench:ingest --format otlp: the same trace the JSON route gets
// (traceObject: its spans, their input, output, usage, attributes and event), as the
// ExportTraceServiceRequest an OpenTelemetry SDK would send for it. Encoded once with the
// official protos (libs/traces); each body is that template with a new trace id written at
// its fixed offsets, so the load generator spends microseconds per body.
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const protobuf = require('protobufjs');
const { OTLP_TRACE_DESCRIPTOR } = require(path.join(__dirname, '../../libs/traces/dist/otlp/otlp-descriptor'));
const { traceObject } = require('./common');

const ExportRequest = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR).lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
/** A trace id no random one repeats; replaced in every body. */
const MARKER = Buffer.from('c1ae7ace' + 'f00dfeed'.repeat(3), 'hex');

const str = (key, value) => ({ key, value: { stringValue: value } });
const int = (key, value) => ({ key, value: { intValue: value } });
const dbl = (key, value) => ({ key, value: { doubleValue: value } });
const nanos = (iso) => BigInt(Date.parse(iso)) * 1_000_000n;

/** The spans of traceObject(id, baseMs, options) as OTLP spans of `traceId`, the trace's own fields on a root span. */
function otlpSpans(traceId, baseMs, options) {
  const trace = traceObject('t', baseMs, options);
  const spanId = (i) => Buffer.from((i + 1).toString(16).padStart(16, '0'), 'hex');
  const root = {
    traceId,
    spanId: spanId(0),
    name: trace.name,
    kind: 2, // SERVER
    startTimeUnixNano: nanos(trace.startTime).toString(),
    endTimeUnixNano: nanos(trace.endTime).toString(),
    status: { code: 1 },
    attributes: [
      str('input.value', JSON.stringify(trace.input)),
      str('input.mime_type', 'application/json'),
      str('output.value', JSON.stringify(trace.output)),
      str('output.mime_type', 'application/json'),
      ...Object.entries(trace.metadata).map(([k, v]) => (typeof v === 'number' ? int(k, v) : str(k, v))),
      str('user.id', trace.userId),
      str('session.id', trace.sessionId),
    ],
  };
  const spans = trace.spans.slice(1).map((s, i) => ({
    traceId,
    spanId: spanId(i + 1),
    parentSpanId: s.parentId === 's0' || s.parentId === null ? spanId(0) : spanId(Number(s.parentId.slice(1))),
    name: s.name,
    kind: 3, // CLIENT
    startTimeUnixNano: nanos(s.startTime).toString(),
    endTimeUnixNano: nanos(s.endTime).toString(),
    status: { code: 1 },
    attributes: [
      str('openinference.span.kind', s.kind === 'generation' ? 'LLM' : s.kind.toUpperCase()),
      str('llm.model_name', s.model),
      str('input.value', JSON.stringify(s.input)),
      str('input.mime_type', 'application/json'),
      str('output.value', JSON.stringify(s.output)),
      str('output.mime_type', 'application/json'),
      int('llm.token_count.prompt', s.usage.inputTokens),
      int('llm.token_count.completion', s.usage.outputTokens),
      dbl('cinetrace.video.duration_seconds', s.usage.videoSeconds),
      ...Object.entries(s.attributes).map(([k, v]) => (typeof v === 'string' ? str(k, v) : Number.isInteger(v) ? int(k, v) : dbl(k, v))),
    ],
    events: s.events.map((e) => ({ name: e.name, timeUnixNano: nanos(e.time).toString() })),
  }));
  return [root, ...spans];
}

/**
 * `() => { id, body }`: a new trace of `spans` spans (the root included) per call, its OTel
 * trace id in hex (as the service stores it) and its protobuf body.
 */
function otlpBodyFactory({ spans = 10, baseMs = Date.now() } = {}) {
  const request = {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'video-pipeline'), str('deployment.environment', 'bench')] },
        scopeSpans: [{ scope: { name: 'bench', version: '1' }, spans: otlpSpans(MARKER, baseMs, { spans }) }],
      },
    ],
  };
  const template = Buffer.from(ExportRequest.encode(ExportRequest.fromObject(request)).finish());
  const offsets = [];
  for (let at = template.indexOf(MARKER); at !== -1; at = template.indexOf(MARKER, at + MARKER.length)) offsets.push(at);
  if (offsets.length !== spans) throw new Error(`the OTLP template holds its trace id ${offsets.length} times, not ${spans}`);
  const times = timeOffsets(template, request.resourceSpans[0].scopeSpans[0].spans);
  return () => {
    const traceId = randomBytes(16);
    const body = Buffer.from(template);
    for (const at of offsets) traceId.copy(body, at);
    // Every time moves with the clock, as the JSON route's bodies do (and as an SDK's would):
    // a trace's start time and name lead the trace list's indexes.
    const shift = BigInt(Date.now() - baseMs) * 1_000_000n;
    for (const { at, nanos } of times) body.writeBigUInt64LE(nanos + shift, at);
    return { id: traceId.toString('hex'), body };
  };
}

/** Where each span's start, end and event times (fixed64 unix nanoseconds) lie in the template. */
function timeOffsets(template, spans) {
  const uses = new Map();
  for (const span of spans) {
    for (const value of [span.startTimeUnixNano, span.endTimeUnixNano, ...(span.events || []).map((e) => e.timeUnixNano)]) uses.set(value, (uses.get(value) || 0) + 1);
  }
  const times = [];
  for (const [value, count] of uses) {
    const nanos = BigInt(value);
    const bytes = Buffer.alloc(8);
    bytes.writeBigUInt64LE(nanos);
    const found = [];
    for (let at = template.indexOf(bytes); at !== -1; at = template.indexOf(bytes, at + 1)) found.push(at);
    // Preceded by its field's tag (fixed64: wire type 1), and exactly as often as the spans use it.
    if (found.length !== count || found.some((at) => (template[at - 1] & 7) !== 1)) throw new Error(`the OTLP template holds time ${value} ${found.length} times, not ${count}`);
    for (const at of found) times.push({ at, nanos });
  }
  return times;
}

module.exports = { otlpBodyFactory };
