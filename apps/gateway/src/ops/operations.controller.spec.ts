import { BusClient } from '@cinetrace/bus';
import { DomainError, ServicePings } from '@cinetrace/contracts';
import { domainErrorOf, rejectionOf } from '@cinetrace/testing';
import { DataSource } from 'typeorm';
import { OperationsController } from './operations.controller';

function controller(options: { storeUp?: boolean; busUp?: boolean; queueUp?: boolean; silent?: string[]; otlpGrpcPort?: number | null } = {}) {
  const bus = {
    isReachable: async () => options.busUp ?? true,
    probeAnswer: async (pattern: string) => {
      if ((options.silent ?? []).includes(pattern)) return undefined;
      if (pattern !== ServicePings['benchmark-service']) return { status: 'ok' };
      return { status: 'ok', checks: { queue: options.queueUp === false ? 'down' : 'up' } };
    },
  } as unknown as BusClient;
  const dataSource = {
    query: async () => {
      if (options.storeUp === false) throw new Error('connection refused');
      return [{ '?column?': 1 }];
    },
  } as unknown as DataSource;
  return new OperationsController(bus, dataSource, { current: () => (options.otlpGrpcPort === undefined ? 4317 : options.otlpGrpcPort) });
}

describe('OperationsController /readyz', () => {
  it('is ready when the store, the bus, the queue and every service answer', async () => {
    const answer = await controller().ready();
    expect(answer.checks).toMatchObject({ store: 'up', bus: 'up', queue: 'up' });
    expect(answer.checks.services).toEqual(Object.fromEntries(Object.keys(ServicePings).map((name) => [name, 'up'])));
  });

  it('says where OTLP/gRPC listens, and null when it does not (off, or its port was taken)', async () => {
    expect((await controller({ otlpGrpcPort: 4317 }).ready()).otlpGrpcPort).toBe(4317);
    expect((await controller({ otlpGrpcPort: null }).ready()).otlpGrpcPort).toBeNull();
  });

  it('names the queue, and benchmark-service whose check failed, when the task queue is down', async () => {
    const error = await rejectionOf(controller({ queueUp: false }).ready());
    expect(error).toMatchObject({ code: 'unavailable', detail: 'Not ready: queue, benchmark-service unreachable' });
  });

  it('names a service that does not answer its ping', async () => {
    const error = await rejectionOf(controller({ silent: [ServicePings['trace-ingest']] }).ready());
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'unavailable', detail: 'Not ready: trace-ingest unreachable' });
  });

  it('names the store and the bus, then the services, when all are down', async () => {
    const error = await domainErrorOf(controller({ storeUp: false, busUp: false, silent: Object.values(ServicePings) }).ready());
    expect(error.detail).toBe('Not ready: store, bus, queue, project-service, prompt-service, trace-ingest, benchmark-service, media-service unreachable');
  });
});
