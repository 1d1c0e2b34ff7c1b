import { SPAN_KINDS, SPAN_STATUSES, TRACE_STATUSES } from '@cinetrace/contracts';

/** Ids chosen by clients: an OpenTelemetry hex id fits, so do most vendors' ids. */
export const CLIENT_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
/** Spans of one payload (a trace may hold more, sent in several: see TraceLimits). */
export const MAX_SPANS_PER_TRACE = 1000;
export const MAX_TAGS = 50;

const time = { type: ['string', 'number'] };
const nullableString = (maxLength: number) => ({ type: ['string', 'null'], maxLength });
/** Any JSON object; `additionalProperties` said, so that a generated client types its keys (a bare object type becomes an object with no keys). */
const jsonObject = { type: 'object', additionalProperties: {} };

const event = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'time'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 256 }, time, attributes: jsonObject },
};

const span = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'startTime'],
  properties: {
    id: { type: 'string', pattern: CLIENT_ID_PATTERN },
    parentId: { type: ['string', 'null'], pattern: CLIENT_ID_PATTERN },
    name: { type: 'string', minLength: 1, maxLength: 256 },
    kind: { enum: SPAN_KINDS },
    status: { enum: SPAN_STATUSES },
    statusMessage: nullableString(4096),
    startTime: time,
    endTime: { type: ['string', 'number', 'null'] },
    model: nullableString(256),
    input: {},
    output: {},
    usage: { type: 'object', additionalProperties: { type: 'number', minimum: 0 } },
    costUsd: { type: ['number', 'null'], minimum: 0 },
    attributes: jsonObject,
    events: { type: 'array', maxItems: 1000, items: event },
  },
};

/** The shape of a trace as clients send it (API.md, "Traces"); semantics are checked in code. */
export const traceSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: CLIENT_ID_PATTERN },
    name: nullableString(256),
    status: { enum: TRACE_STATUSES },
    startTime: time,
    endTime: { type: ['string', 'number', 'null'] },
    input: {},
    output: {},
    metadata: jsonObject,
    tags: { type: 'array', maxItems: MAX_TAGS, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 100 } },
    userId: nullableString(256),
    sessionId: nullableString(256),
    spans: { type: 'array', maxItems: MAX_SPANS_PER_TRACE, items: span },
  },
} as const;
