import { DomainError, ErrorCode, Patterns } from '@cinetrace/contracts';
import { metricsRegistry } from '@cinetrace/metrics';
import { INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IsString } from 'class-validator';
import { BusClient } from '../bus.client';
import { BusController } from '../bus-controller.decorator';
import { InProcessBroker } from './in-process.broker';
import { InProcessClient } from './in-process.client';
import { InProcessServer } from './in-process.server';

class Greeting {
  @IsString() name: string;
}

@BusController()
class EchoController {
  @MessagePattern('test.echo')
  echo(@Payload() payload: { at: Date; key: string }) {
    return { received: payload, atIsDate: payload.at instanceof Date };
  }

  @MessagePattern('test.greet')
  greet(@Payload() greeting: Greeting) {
    return `hello ${greeting.name}`;
  }

  @MessagePattern('test.missing')
  missing(): never {
    throw DomainError.notFound('No such thing');
  }

  @MessagePattern('test.slow')
  async slow(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return 'late';
  }

  /** What the trace handler was handed (a real pattern: its shape is BUS_REQUEST_SHAPES's). */
  static traceRequests: unknown[] = [];

  @MessagePattern(Patterns.TraceGet)
  trace(@Payload() request: { id: string }) {
    EchoController.traceRequests.push(request);
    return { id: request.id };
  }

  @MessagePattern('test.crash')
  crash(): never {
    throw new Error('relation "secrets" does not exist');
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('in-process bus', () => {
  const broker = new InProcessBroker();
  let service: INestMicroservice;
  let bus: BusClient;

  beforeAll(async () => {
    service = await NestFactory.createMicroservice(EchoModule, { strategy: new InProcessServer(broker), logger: false });
    await service.listen();
    bus = new BusClient(new InProcessClient(broker), 1000);
  });

  afterAll(() => service.close());

  /** A request on a pattern of this test only, outside BusContract (by which bus.request is typed). */
  const outsideContract = (pattern: string, payload: unknown): Promise<unknown> => bus.request(pattern as never, payload as never);

  it('delivers payloads through a JSON round-trip, as Kafka would, and the reply as the handler built it', async () => {
    const sent = { at: new Date(0), key: 'k' };
    const reply = (await outsideContract('test.echo', sent)) as { received: unknown; atIsDate: boolean };
    expect(reply).toEqual({ received: { at: '1970-01-01T00:00:00.000Z', key: 'k' }, atIsDate: false });
    expect(reply.received).not.toBe(sent);
  });

  it('validates payloads where they are consumed', async () => {
    await expect(outsideContract('test.greet', { name: 3 })).rejects.toMatchObject({
      code: ErrorCode.ValidationFailed,
      errors: [{ path: 'name', message: 'must be a string' }],
    });
    await expect(outsideContract('test.greet', { name: 'Ada' })).resolves.toBe('hello Ada');
  });

  it('refuses a request holding a prototype-reaching key, or not of its pattern’s shape, before its handler runs', async () => {
    const poisoned = JSON.parse('{"at":0,"key":"k","nested":{"__proto__":{"polluted":true}}}') as unknown;
    await expect(outsideContract('test.echo', poisoned)).rejects.toMatchObject({ code: ErrorCode.ValidationFailed, errors: [{ path: 'request' }] });
    await expect(outsideContract(Patterns.TraceGet, { id: 'tr_1' })).rejects.toMatchObject({ code: ErrorCode.ValidationFailed, errors: [{ path: 'ctx' }] });
    expect(EchoController.traceRequests).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The service is unharmed: the next request is answered.
    const ctx = { orgId: 'org_1', apiKeyId: 'key_1', requestId: 'r1', projectId: 'prj_1' };
    await expect(outsideContract(Patterns.TraceGet, { ctx, id: 'tr_1' })).resolves.toEqual({ id: 'tr_1' });
    expect(EchoController.traceRequests).toHaveLength(1);
  });

  it('carries domain errors as codes and hides unexpected ones behind internal', async () => {
    await expect(outsideContract('test.missing', {})).rejects.toMatchObject({ code: 'not_found', detail: 'No such thing' });
    const crash = outsideContract('test.crash', {});
    await expect(crash).rejects.toMatchObject({ code: 'internal', detail: 'Internal error' });
  });

  it('answers unavailable for a pattern no service handles', async () => {
    await expect(outsideContract('test.nobody', {})).rejects.toMatchObject({ code: 'unavailable', retryAfter: 2 });
  });

  it("bounds a request by its own timeoutMs when given, else by the client's", async () => {
    // The handler answers after 300 ms, within the client's 1000 ms: only the request's own 50 ms refuses it.
    await expect(bus.request('test.slow' as never, {} as never, { timeoutMs: 50 })).rejects.toMatchObject({ code: 'unavailable' });
    await expect(outsideContract('test.slow', {})).resolves.toBe('late');
  });

  it('times every request by pattern and outcome; a pattern outside the contracts is "other"', async () => {
    const counts = async () => {
      const metric = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === 'cinetrace_bus_request_duration_seconds');
      const count = (pattern: string, outcome: string) =>
        metric?.values.find((v) => (v as { metricName?: string }).metricName?.endsWith('_count') && v.labels.pattern === pattern && v.labels.outcome === outcome)?.value ?? 0;
      return { ok: count('other', 'ok'), error: count('other', 'error'), unavailable: count('other', 'unavailable') };
    };
    const before = await counts();
    await outsideContract('test.echo', { at: 0, key: 'k' });
    await outsideContract('test.missing', {}).catch(() => undefined);
    await outsideContract('test.nobody', {}).catch(() => undefined);
    expect(await counts()).toEqual({ ok: before.ok + 1, error: before.error + 1, unavailable: before.unavailable + 1 });
    expect(await metricsRegistry.metrics()).not.toContain('test.echo');
  });
});
