import { expect } from '@jest/globals';
import { ApiResponse, aProject } from '@cinetrace/testing';
import { decodeGrpcStatusDetails, decodeStatus } from '@cinetrace/traces';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { OTLP_TRACES, callGrpcExport, grpcMetadata, otlpHeaders, postOtlp, recordSpans } from './support/otlp';
import { useStack } from './support/stack-hooks';
import { readEventually } from './support/traces';
import { untilRefused } from './support/until-refused';
import { Answer } from './support/api-types';

/** A one-span OTLP/JSON export of a new trace. */
function anExport(): { traceId: string; body: object } {
  const traceId = randomBytes(16).toString('hex');
  const span = { traceId, spanId: randomBytes(8).toString('hex'), name: 'render', startTimeUnixNano: '1780000000000000000', endTimeUnixNano: '1780000001000000000' };
  return { traceId, body: { resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] } };
}

const EXPORTS_BEHIND = 20;
const MAX_LAG_BYTES = EXPORTS_BEHIND * JSON.stringify(anExport().body).length;

// As traces-backpressure.distributed: only the distributed mode accepts before storing.
describe('OTLP ingest backpressure (distributed)', () => {
  // Its own stack: the test stops and starts trace-ingest.
  const ctx = useStack({ own: true, env: { TRACE_INGEST_MAX_LAG_BYTES: String(MAX_LAG_BYTES) } });

  it('answers 503 with Retry-After and a google.rpc.Status (gRPC: UNAVAILABLE with a RetryInfo) while trace-ingest is too far behind, so exporters retry', async () => {
    const project = await ctx.api.post<Answer<'createProject', 201>>('/api/v1/projects', aProject());
    const api = ctx.api.withProjectKey(project.body.key);
    const first = anExport();
    expect((await api.post(OTLP_TRACES, first.body)).status).toBe(200);
    await readEventually(api, first.traceId);
    await sleep(1500); // the gateway has read the lag

    await ctx.stack.killApp('trace-ingest');
    const accepted = [first.traceId];
    let refused: ApiResponse | undefined;
    for (let i = 0; i < 10 * EXPORTS_BEHIND && !refused; i += 1) {
      const next = anExport();
      const response = await api.post(OTLP_TRACES, next.body);
      if (response.status === 200) accepted.push(next.traceId);
      else refused = response;
    }
    expect(refused?.status).toBe(503);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused!.body).toEqual({ code: 14, message: expect.any(String) });

    // In protobuf, the Status is protobuf.
    const spans = recordSpans(({ start }) => start('render').end());
    const headers = otlpHeaders(ctx.stack.apiKey, project.body.key, 'application/x-protobuf');
    const proto = await untilRefused(
      () => postOtlp(ctx.stack, Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!), headers),
      (answer) => answer.status !== 200,
    );
    expect(proto.status).toBe(503);
    expect(proto.headers.get('retry-after')).not.toBeNull();
    expect(decodeStatus(proto.bytes).code).toBe(14);

    // Over gRPC: UNAVAILABLE, with a RetryInfo saying when to come back.
    const overGrpc = await untilRefused(
      () => callGrpcExport(ctx.stack, Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!), grpcMetadata(ctx.stack.apiKey, project.body.key)),
      (answer) => answer.code !== 0,
    );
    expect(overGrpc.code).toBe(14);
    const details = decodeGrpcStatusDetails(overGrpc.metadata!.get('grpc-status-details-bin')[0] as Buffer);
    expect(details).toMatchObject({ code: 14, message: expect.any(String) });
    expect(details.retryAfterSeconds).toBeGreaterThanOrEqual(1);

    // trace-ingest back: exports are taken again, and every accepted one is stored.
    await ctx.stack.startApp('trace-ingest');
    const late = anExport();
    const deadline = Date.now() + 90_000;
    let again: ApiResponse | undefined;
    while (Date.now() < deadline) {
      again = await api.post(OTLP_TRACES, late.body);
      if (again.status === 200) break;
      await sleep(500);
    }
    expect(again?.status).toBe(200);
    for (const traceId of [...accepted, late.traceId]) await readEventually(api, traceId, () => true, 30_000);
  }, 240_000);
});
