import { expect } from '@jest/globals';
import { Api, ApiResponse } from '@cinetrace/testing';
import { Answer } from './support/api-types';
import { expectProblem } from './support/expectations';
import { SpanKind, exportSpans, otlpExporter, recordSpans } from './support/otlp';
import { inNewProject, keyWithScopes } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { TRACE_TEST_TIMEOUT_MS, aSpan, aTrace, ingest, readEventually, readNow } from './support/traces';

const MODEL_PRICES = '/api/v1/model-prices';

type PriceList = Answer<'listModelPrices'>;

const putPrices = (api: Api, entries: unknown[]): Promise<ApiResponse<PriceList>> => api.request<PriceList>('PUT', MODEL_PRICES, { json: { entries } });

/** The project's prices for its own models: tokens of `acme-llm` (cached ones cheaper), seconds of `acme-video` (more at 1080p). */
const ACME = [
  { match: 'acme-llm', unit: 'input_token', usd: 0.001 },
  { match: 'acme-llm', unit: 'cached_input_token', usd: 0.0005 },
  { match: 'acme-llm', unit: 'output_token', usd: 0.002 },
  { match: { regex: '^acme-video' }, unit: 'video_second', usd: 0.25 },
  { match: { regex: '^acme-video' }, unit: 'video_second', usd: 0.5, resolution: '1080p' },
];

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

describe('Model prices', () => {
  const ctx = useStack();

  it("answers a new project the shipped defaults, dated and marked, and a PUT's entries before them", async () => {
    const { api } = await inNewProject(ctx.api);
    const defaults = await api.get<PriceList>(MODEL_PRICES);
    expect(defaults.status).toBe(200);
    expect(defaults.body.nextCursor).toBeNull();
    expect(defaults.body.data.every((e) => e.source === 'default' && !Number.isNaN(Date.parse(e.asOf)))).toBe(true);
    expect(defaults.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ match: 'gpt-4o', unit: 'input_token', usd: 0.0000025, resolution: null }),
        expect.objectContaining({ match: 'sora-2-pro', unit: 'video_second', usd: 0.5, resolution: '1024x1792' }),
      ]),
    );

    const put = await putPrices(api, ACME);
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual(ACME.map((entry) => ({ resolution: null, ...entry, source: 'project', asOf: expect.any(String) })));
    const after = await api.get<PriceList>(MODEL_PRICES);
    expect(after.body.data).toEqual([...put.body.data, ...defaults.body.data]);
  });

  it('prices a JSON trace whose spans carry usage and no cost by the project prices, and keeps a sent cost', async () => {
    const { api } = await inNewProject(ctx.api);
    expect((await putPrices(api, ACME)).status).toBe(200);
    const trace = aTrace({
      spans: [
        aSpan({ id: 'llm', model: 'acme-llm', usage: { inputTokens: 100, outputTokens: 50 } }),
        aSpan({
          id: 'render',
          model: 'acme-video-2',
          usage: { videoSeconds: 8 },
          output: { url: 'https://cdn.example/shot.mp4', contentType: 'video/mp4', width: 1920, height: 1080 },
        }),
        aSpan({ id: 'cached', model: 'acme-llm', usage: { inputTokens: 100, cachedInputTokens: 40 } }),
        aSpan({ id: 'billed', model: 'acme-llm', usage: { inputTokens: 100 }, costUsd: 0.05 }),
        aSpan({ id: 'unpriced', model: 'someone-elses-model', usage: { inputTokens: 100 } }),
      ],
    });
    await ingest(api, trace, { wait: true });
    const stored = await readNow(api, trace.id);
    const span = (id: string) => stored.spans.find((s) => s.id === id);
    expect(span('llm')).toMatchObject({ costUsd: 0.2, costSource: 'computed' });
    expect(span('render')).toMatchObject({ costUsd: 4, costSource: 'computed' });
    // The 40 cached of the 100 input tokens at their price, and not again as input.
    expect(span('cached')).toMatchObject({ costUsd: 0.08, costSource: 'computed' });
    expect(span('billed')).toMatchObject({ costUsd: 0.05, costSource: 'sent' });
    expect(span('unpriced')).toMatchObject({ costUsd: null, costSource: null });
    expect(stored.costUsd).toBeCloseTo(4.33, 9);
  });

  it('prices an OpenTelemetry export the same way: cache reads as cached input, video resolution from its attributes', async () => {
    const { api, key } = await inNewProject(ctx.api);
    expect((await putPrices(api, ACME)).status).toBe(200);
    const spans = recordSpans(({ start }) => {
      const root = start('pipeline', {}, undefined, SpanKind.SERVER);
      const usage = { 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.cache_read.input_tokens': 40, 'gen_ai.usage.output_tokens': 50 };
      start('chat', { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'acme-llm', ...usage }, root).end();
      start('render', { 'gen_ai.request.model': 'acme-video-2', 'cinetrace.video.duration_seconds': 8, 'cinetrace.video.width': 1920, 'cinetrace.video.height': 1080 }, root).end();
      root.end();
    });
    const exporter = otlpExporter(ctx.stack, { encoding: 'protobuf', projectKey: key, apiKey: ctx.stack.apiKey });
    expect(await exportSpans(exporter, spans)).toEqual({ code: 0 });
    const traceId = spans[0].spanContext().traceId;
    const stored = await readEventually(api, traceId, (t) => t.spanCount === 3);
    const byName = (name: string) => stored.spans.find((s) => s.name === name);
    expect(byName('chat')).toMatchObject({ usage: { inputTokens: 100, cachedInputTokens: 40, outputTokens: 50 }, costUsd: 0.18, costSource: 'computed' });
    expect(byName('render')).toMatchObject({ costUsd: 4, costSource: 'computed' });
    expect(byName('pipeline')).toMatchObject({ costUsd: null, costSource: null });
  });

  it('prices spans without a project price by the defaults', async () => {
    const { api } = await inNewProject(ctx.api);
    const trace = aTrace({ spans: [aSpan({ id: 'llm', model: 'openai/gpt-4o-mini-2024-07-18', usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 } })] });
    await ingest(api, trace, { wait: true });
    // 0.15 + 0.60 USD per million tokens, as the defaults list them.
    expect((await readNow(api, trace.id)).spans[0]).toMatchObject({ costUsd: 0.75, costSource: 'computed' });
  });

  it("never applies one project's prices to another's spans, nor shows it them", async () => {
    const mine = await inNewProject(ctx.api);
    const theirs = await inNewProject(ctx.api);
    expect((await putPrices(mine.api, ACME)).status).toBe(200);
    const listed = await theirs.api.get<PriceList>(MODEL_PRICES);
    expect(listed.body.data.filter((e) => e.source === 'project')).toEqual([]);
    const trace = aTrace({ spans: [aSpan({ id: 'llm', model: 'acme-llm', usage: { inputTokens: 100, outputTokens: 50 } })] });
    await ingest(theirs.api, trace, { wait: true });
    expect((await readNow(theirs.api, trace.id)).spans[0]).toMatchObject({ costUsd: null, costSource: null });
  });

  it('lets a read key list the prices but not change them (403), and refuses invalid entries naming each field', async () => {
    const { api, key } = await inNewProject(ctx.api);
    const reader = await keyWithScopes(ctx.api, key, ['read']);
    expect((await reader.get<PriceList>(MODEL_PRICES)).status).toBe(200);
    expectProblem(await putPrices(reader, ACME), 403, 'insufficient_scope');

    const refused = await putPrices(api, [
      { match: { regex: '(a+)\\1' }, unit: 'video_second', usd: 1 },
      { match: 'acme-llm', unit: 'tokens', usd: -1 },
      { match: 'acme-llm', unit: 'input_token', usd: 1, resolution: '1080p' },
    ]);
    expectProblem(refused, 400, 'validation_failed', ['entries[0].match.regex', 'entries[1].unit', 'entries[1].usd', 'entries[2].resolution']);
    expect((await api.get<PriceList>(MODEL_PRICES)).body.data.filter((e) => e.source === 'project')).toEqual([]);
  });
});
