import fc from 'fast-check';
import { OpenApiDocument, Schema } from './openapi-document';

/**
 * Request parts for the fuzz suite, generated from the OpenAPI document the service
 * serves (itself generated from the DTOs the service validates with), plus shapes the
 * document leaves untyped (traces, scorers, targets) and the odd values attackers try.
 */

/** Keys that have broken object handling somewhere before: prototype names, empties, dots. */
const ODD_KEYS = ['constructor', '__proto__', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '', ' ', 'a.b', '$where'];

/** Strings that have broken parsers, stores and renderers before. */
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  'a\udfffb',
  '%ff',
  '../../etc/passwd',
  "'; DROP TABLE traces; --",
  '{{x}}',
  '<script>alert(1)</script>',
  'x'.repeat(5000),
  '9'.repeat(40),
  '2026-13-45T99:99:99Z',
  '1e400',
  'null',
  'constructor',
];

/** Numbers at the edges: past the Date range, past safe integers, negative zero, huge. */
const ODD_NUMBERS = [0, -0, -1, 1.5, 2 ** 53, -(2 ** 53), 8_700_000_000_000_000, 1e308, -1e308, 5e-324];

export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const oddNumber: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(...ODD_NUMBERS), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));

const key: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...ODD_KEYS), fc.string({ maxLength: 10 }));

/** Any JSON value, odd strings, numbers and keys included, a few levels deep. */
export const wildJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    oddNumber,
    oddString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A time as a client might send it: good ones and every way to get one wrong. */
const aTime: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.date({ min: new Date(0), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 4_102_444_800_000 }) },
  { weight: 1, arbitrary: oddNumber },
  { weight: 1, arbitrary: oddString },
);

const usage = fc.dictionary(fc.oneof(fc.constantFrom('inputTokens', 'videoSeconds', ...ODD_KEYS), fc.string({ maxLength: 8 })), fc.oneof(fc.nat(), oddNumber, wildJson), {
  maxKeys: 4,
});

const aSpan = fc.record(
  {
    id: fc.oneof(fc.constantFrom('s1', 's2', 's3'), oddString),
    parentId: fc.oneof(fc.constantFrom('s1', 's2', null), oddString),
    name: fc.oneof(fc.constant('step'), oddString),
    kind: fc.oneof(fc.constantFrom('span', 'generation', 'llm', 'tool', 'scorer'), oddString),
    status: fc.oneof(fc.constantFrom('unset', 'ok', 'error'), oddString),
    startTime: aTime,
    endTime: aTime,
    model: oddString,
    input: wildJson,
    output: fc.oneof(wildJson, fc.record({ url: fc.webUrl(), contentType: fc.constantFrom('video/mp4', 'image/png', 'text/plain') })),
    usage,
    costUsd: fc.oneof(fc.double({ min: 0, max: 10, noNaN: true }), oddNumber, oddString),
    attributes: wildJson,
    events: fc.array(fc.record({ name: oddString, time: aTime, attributes: wildJson }, { requiredKeys: ['name', 'time'] }), { maxLength: 2 }),
  },
  { requiredKeys: ['name', 'startTime'] },
);

/** A trace: the contract's shape, each field good or bad. The OpenAPI document leaves it untyped. */
export const aTrace: fc.Arbitrary<unknown> = fc.record(
  {
    id: fc.oneof(fc.constantFrom('fuzz-trace-1', 'fuzz-trace-2'), oddString),
    name: oddString,
    status: fc.oneof(fc.constantFrom('running', 'ok', 'error'), oddString),
    startTime: aTime,
    endTime: aTime,
    input: wildJson,
    output: wildJson,
    metadata: fc.oneof(fc.dictionary(key, wildJson, { maxKeys: 5 }), wildJson),
    tags: fc.oneof(fc.array(oddString, { maxLength: 5 }), wildJson),
    userId: oddString,
    sessionId: oddString,
    spans: fc.oneof(fc.array(aSpan, { maxLength: 4 }), wildJson),
  },
  { requiredKeys: [] },
);

const SCORER_TYPES = ['exact_match', 'contains', 'regex', 'json_schema', 'numeric_tolerance', 'range', 'string_similarity', 'llm_judge', 'http'];

/** A scorer: a known type with a config of wild values, or anything at all. */
export const aScorer: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      name: oddString,
      type: fc.oneof(fc.constantFrom(...SCORER_TYPES), oddString),
      config: fc.oneof(
        fc.record(
          {
            field: fc.oneof(fc.constantFrom('caption', 'video.durationSeconds'), oddString),
            pattern: fc.oneof(fc.constantFrom('^(a+)+$', '(', 'a{1,100000}', '\\1'), oddString),
            schema: wildJson,
            threshold: oddNumber,
            tolerance: oddNumber,
            url: fc.oneof(fc.webUrl(), oddString),
            headers: fc.dictionary(fc.constantFrom('Authorization', 'Cookie', 'x-tenant', '__proto__'), wildJson, { maxKeys: 2 }),
          },
          { requiredKeys: [] },
        ),
        wildJson,
      ),
    },
    { requiredKeys: ['type'] },
  ),
  wildJson,
);

/** A target: a known type with wild fields, or anything at all. */
export const aTarget: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      type: fc.oneof(fc.constantFrom('dataset', 'http', 'openai_chat'), oddString),
      url: fc.oneof(fc.webUrl(), fc.constantFrom('http://127.1/', 'http://[::ffff:127.0.0.1]/', 'file:///etc/passwd'), oddString),
      baseUrl: fc.oneof(fc.webUrl(), oddString),
      model: oddString,
      headers: fc.dictionary(fc.constantFrom('Authorization', 'x-tenant', 'constructor'), wildJson, { maxKeys: 2 }),
      timeoutMs: oddNumber,
      apiKeyEnv: fc.constantFrom('BOOTSTRAP_API_KEY', 'DATABASE_URL', 'PATH'),
      promptId: oddString,
    },
    { requiredKeys: ['type'] },
  ),
  wildJson,
);

/** Schemas the document leaves untyped, by the property that holds them. */
const UNTYPED: Record<string, fc.Arbitrary<unknown>> = { target: aTarget, scorers: fc.array(aScorer, { minLength: 1, maxLength: 3 }) };

/**
 * Values shaped by `schema` (refs resolved): mostly valid-looking, with wild values mixed in
 * at every level, so both the validators and what lies past them are exercised.
 */
export function fromSchema(doc: OpenApiDocument, schema: Schema | undefined, ids: fc.Arbitrary<string>, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(doc, schema);
  if (!resolved || depth > 5) return wildJson;
  const shaped = shapedBy(doc, resolved, ids, depth);
  return fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: wildJson });
}

function shapedBy(doc: OpenApiDocument, schema: Schema, ids: fc.Arbitrary<string>, depth: number): fc.Arbitrary<unknown> {
  if (schema.allOf?.length) return fromSchema(doc, schema.allOf[0], ids, depth);
  if (schema.oneOf?.length) return fc.oneof(...schema.oneOf.map((option) => fromSchema(doc, option, ids, depth + 1)));
  if ('const' in schema) return fc.oneof({ weight: 4, arbitrary: fc.constant(schema.const) }, { weight: 1, arbitrary: oddString });
  if (schema.enum?.length) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: oddString });
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'object': {
      const properties: Record<string, Schema> = schema.properties ?? {};
      if (!Object.keys(properties).length) return fc.dictionary(key, wildJson, { maxKeys: 4 });
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) {
        fields[name] = UNTYPED[name] ?? (/Id$/.test(name) && resolve(doc, property)?.type === 'string' ? fc.oneof(ids, oddString) : fromSchema(doc, property, ids, depth + 1));
      }
      const record = fc.record(fields, { requiredKeys: [] });
      // Now and then an extra field nobody declared.
      return fc.tuple(record, fc.option(fc.tuple(key, wildJson), { freq: 5 })).map(([value, extra]) => (extra ? { ...value, [extra[0]]: extra[1] } : value));
    }
    case 'array':
      return fc.array(fromSchema(doc, schema.items, ids, depth + 1), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'string':
      if (schema.format === 'date-time') return aTime;
      return fc.oneof(fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) }), oddString);
    case 'number':
    case 'integer':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 }), oddNumber);
    case 'boolean':
      return fc.oneof(fc.boolean(), wildJson);
    default:
      return wildJson;
  }
}

function resolve(doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 10; hops += 1) {
    current = doc.components?.schemas?.[String(current.$ref).split('/').pop()!];
  }
  return current;
}

/** A list query: paging, the declared parameters, `args` good and bad, and a stray parameter. */
export function aListQuery(filterNames: string[]): fc.Arbitrary<Record<string, string>> {
  const filterValue = fc.oneof(fc.constantFrom('true', 'ok', '2026-01-01T00:00:00.000Z', '8700000000000000', 'a,b'), oddString);
  const args = fc.oneof(
    fc.dictionary(fc.oneof(fc.constantFrom(...filterNames, 'metadata', 'from', 'to', 'tags'), key), wildJson, { maxKeys: 3 }).map((o) => JSON.stringify(o)),
    oddString,
  );
  return fc
    .record(
      {
        limit: fc.oneof(fc.integer({ min: -5, max: 300 }).map(String), oddString),
        cursor: oddString,
        args,
        ...Object.fromEntries(filterNames.map((name) => [name, filterValue])),
        stray: oddString,
      },
      { requiredKeys: [] },
    )
    .map((query) => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string>);
}

/** A body too deep for any parser that recurses: JSON text, sent raw. */
export const deepBody = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
