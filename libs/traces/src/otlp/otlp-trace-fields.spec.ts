import { expect } from '@jest/globals';
import { checkOtlpPayloadAlone, refuseInvalidSpans } from './otlp-span-checks';
import { OtlpTracePayload, otlpToTraces } from './otlp-to-traces';

const TRACE = '5b8efff798038103d269b633813fc60c';
const ROOT = 'eee19b7ec3c1b174';
const CHILD = 'eee19b7ec3c1b173';
const T0 = 1_780_000_000_000; // ms
const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const strings = (key: string, values: string[]) => ({ key, value: { arrayValue: { values: values.map((v) => ({ stringValue: v })) } } });

const span = (spanId: string, parentSpanId: string, attributes: object[]) => ({
  traceId: TRACE,
  spanId,
  parentSpanId,
  name: spanId === ROOT ? 'plan-video' : 'chat',
  startTimeUnixNano: nanos(T0),
  endTimeUnixNano: nanos(T0 + 1000),
  attributes,
});

/** The trace payload these spans map to, under a resource of these attributes. */
function traceOf(spans: object[], resource: object[] = []): OtlpTracePayload['trace'] {
  const { payloads, rejected } = otlpToTraces({ resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ spans }] }] });
  expect(rejected).toEqual([]);
  expect(payloads).toHaveLength(1);
  return payloads[0].trace;
}

describe('OTLP trace fields from the spans', () => {
  it("takes OpenInference's session, user, tags and metadata, and the root's input and output", () => {
    const context = [str('session.id', 'sess-7'), str('user.id', 'user-42'), str('tag.tags', '["storyboard","fox"]'), str('metadata', '{"tenant":"acme","plan":"pro"}')];
    const trace = traceOf([
      span(CHILD, ROOT, [...context, str('input.value', 'child input')]),
      span(ROOT, '', [...context, str('input.value', 'Plan a fox video'), str('output.value', '{"shots":3}'), str('output.mime_type', 'application/json')]),
    ]);
    expect(trace).toMatchObject({
      name: 'plan-video',
      sessionId: 'sess-7',
      userId: 'user-42',
      tags: ['storyboard', 'fox'],
      metadata: { tenant: 'acme', plan: 'pro' },
      input: 'Plan a fox video',
      output: { shots: 3 },
    });
    const checked = checkOtlpPayloadAlone(trace);
    expect(checked.ok).toBe(true);
  });

  it("puts the resource's service and environment in the trace's metadata", () => {
    const resource = [str('service.name', 'storyboard-api'), str('service.version', '1.4.2'), str('deployment.environment.name', 'staging'), str('host.name', 'vm-3')];
    const trace = traceOf([span(ROOT, '', [str('metadata', '{"tenant":"acme","service.name":"not the resource"}')])], resource);
    expect(trace.metadata).toEqual({ tenant: 'acme', 'service.name': 'storyboard-api', 'service.version': '1.4.2', 'deployment.environment.name': 'staging' });
    expect(traceOf([span(ROOT, '', [])], [str('deployment.environment', 'production')]).metadata).toEqual({ 'deployment.environment': 'production' });
  });

  it("takes Traceloop's association properties (its own names and the older camelCase ones) and gen_ai.conversation.id", () => {
    const traceloop = traceOf([
      span(ROOT, '', [
        str('traceloop.span.kind', 'workflow'),
        str('traceloop.association.properties.user_id', 'tl-user'),
        str('traceloop.association.properties.session_id', 'tl-sess'),
      ]),
    ]);
    expect(traceloop).toMatchObject({ userId: 'tl-user', sessionId: 'tl-sess' });
    const camel = traceOf([span(ROOT, '', [str('traceloop.association.properties.userId', 'u-1'), str('traceloop.association.properties.sessionId', 's-1')])]);
    expect(camel).toMatchObject({ userId: 'u-1', sessionId: 's-1' });
    expect(traceOf([span(ROOT, '', [str('gen_ai.conversation.id', 'conv-9')])]).sessionId).toBe('conv-9');
  });

  it("takes the user and session the AI SDK's telemetry metadata names (versions before 7)", () => {
    const trace = traceOf([
      span(ROOT, '', [str('ai.operationId', 'ai.generateText'), str('ai.telemetry.metadata.userId', 'ai-user'), str('ai.telemetry.metadata.sessionId', 'ai-sess')]),
    ]);
    expect(trace).toMatchObject({ userId: 'ai-user', sessionId: 'ai-sess' });
  });

  it('reads the root first, then the other spans in order; unites tags of every span (an array value too)', () => {
    const trace = traceOf([
      span(CHILD, ROOT, [str('user.id', 'child-user'), str('session.id', 'child-session'), strings('tag.tags', ['b', 'c'])]),
      span(ROOT, '', [str('user.id', 'root-user'), strings('tag.tags', ['a', 'b'])]),
    ]);
    expect(trace).toMatchObject({ userId: 'root-user', sessionId: 'child-session' });
    expect(trace.tags).toEqual(['a', 'b', 'c']);
  });

  it('without its root, an export still tells the user and session, and leaves input and output alone', () => {
    const trace = traceOf([span(CHILD, ROOT, [str('user.id', 'user-42'), str('input.value', 'a child input')])]);
    expect(trace.userId).toBe('user-42');
    expect(trace).not.toHaveProperty('input');
    expect(trace).not.toHaveProperty('name');
  });

  it('takes no value the trace model would refuse, so the trace and its spans are stored', () => {
    const tooLong = 'x'.repeat(257);
    const tags = [...Array.from({ length: 60 }, (_, i) => `t${i}`), 'y'.repeat(101), ''];
    const trace = traceOf([
      span(ROOT, '', [str('user.id', tooLong), str('enduser.id', 'end-user'), str('session.id', tooLong), strings('tag.tags', tags), str('metadata', '["not", "an object"]')]),
    ]);
    expect(trace.userId).toBe('end-user');
    expect(trace).not.toHaveProperty('sessionId');
    expect(trace.tags).toHaveLength(50);
    expect(trace).not.toHaveProperty('metadata');
    expect(checkOtlpPayloadAlone(trace).ok).toBe(true);
  });

  it("leaves out OpenInference metadata that would take the trace's metadata past 64 KiB, keeping the resource's", () => {
    const big = JSON.stringify({ notes: 'n'.repeat(40_000), more: 'm'.repeat(30_000) });
    const trace = traceOf([span(ROOT, '', [str('metadata', big)])], [str('service.name', 'storyboard-api')]);
    expect(trace.metadata).toEqual({ 'service.name': 'storyboard-api' });
  });

  it('takes the fields again from the spans left when spans are refused', async () => {
    const trace = traceOf([
      span(CHILD, ROOT, [str('user.id', 'child-user')]),
      { ...span(ROOT, '', [str('user.id', 'root-user'), str('input.value', 'root input')]), name: 'n'.repeat(300) },
    ]);
    expect(trace).toMatchObject({ userId: 'root-user', input: 'root input' });
    const checked = await refuseInvalidSpans(trace, checkOtlpPayloadAlone);
    expect(checked.rejected).toBe(1);
    expect(checked.trace).toMatchObject({ userId: 'child-user' });
    expect(checked.trace).not.toHaveProperty('input');
  });
});
