import { BusClient } from '@cinetrace/bus';
import { DomainError, ErrorCode, ServicePings } from '@cinetrace/contracts';
import { METRICS_CONTENT_TYPE, metricsText } from '@cinetrace/metrics';
import { storeAnswers } from '@cinetrace/persistence';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags, type SchemaObject } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Public } from '../auth/access.decorators';
import { OtlpGrpcPort } from './otlp-grpc-port';

const UP_OR_DOWN = { type: 'string', enum: ['up', 'down'] };
const READY_SCHEMA = {
  type: 'object',
  required: ['status', 'checks', 'otlpGrpcPort'],
  properties: {
    status: { type: 'string', enum: ['ok'] },
    otlpGrpcPort: {
      type: 'integer',
      nullable: true,
      description: 'The port OTLP/gRPC trace export listens on; null when it is off (OTLP_GRPC_PORT=0) or could not take its port',
    },
    checks: {
      type: 'object',
      required: ['store', 'bus', 'queue', 'services'],
      properties: { store: UP_OR_DOWN, bus: UP_OR_DOWN, queue: UP_OR_DOWN, services: { type: 'object', additionalProperties: UP_OR_DOWN } },
    },
  },
} satisfies SchemaObject;

/** How long /readyz waits for each service's answer. */
const SERVICE_PING_MS = 2000;

/** Liveness, readiness and metrics: unauthenticated, for orchestrators and scrapers. */
@ApiTags('Operations')
@Public()
@Controller()
export class OperationsController {
  constructor(
    private readonly bus: BusClient,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly otlpGrpcPort: OtlpGrpcPort,
  ) {}

  @Get('healthz')
  @ApiOperation({ operationId: 'getHealth', summary: 'Liveness: the process is up' })
  @ApiResponse({
    status: 200,
    description: 'Up',
    schema: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } },
  })
  health() {
    return { status: 'ok' };
  }

  /**
   * Ready when the gateway's store, the bus, every service behind it (a service answers
   * once it is subscribed and serving) and the task queue (as benchmark-service sees it)
   * answer; else 503 naming what is down. It also says where OTLP/gRPC really listens, for
   * whoever announces the service (its port may have been taken by another program).
   */
  @Get('readyz')
  @ApiOperation({ operationId: 'getReadiness', summary: 'Readiness: store, bus, every service and the task queue answer (else 503 naming what is down)' })
  @ApiResponse({ status: 200, description: 'Ready', schema: READY_SCHEMA })
  async ready() {
    const services = Object.entries(ServicePings);
    const [store, bus, ...answers] = await Promise.all([
      storeAnswers(this.dataSource)().catch(() => false),
      this.bus.isReachable(),
      ...services.map(([, pattern]) => this.bus.probeAnswer(pattern, SERVICE_PING_MS)),
    ]);
    const serviceUp = services.map((_, i) => answers[i] !== undefined && !Object.values(answers[i]?.checks ?? {}).includes('down'));
    const queue = answers[services.findIndex(([name]) => name === 'benchmark-service')]?.checks?.queue === 'up';
    const state = (up: boolean) => (up ? 'up' : 'down');
    const down = [...(store ? [] : ['store']), ...(bus ? [] : ['bus']), ...(queue ? [] : ['queue']), ...services.filter((_, i) => !serviceUp[i]).map(([name]) => name)];
    if (down.length > 0) throw new DomainError(ErrorCode.Unavailable, `Not ready: ${down.join(', ')} unreachable`);
    const serviceStates = Object.fromEntries(services.map(([name], i) => [name, state(serviceUp[i])]));
    return { status: 'ok', checks: { store: state(store), bus: state(bus), queue: state(queue), services: serviceStates }, otlpGrpcPort: this.otlpGrpcPort.current() };
  }

  @Get('metrics')
  @Header('content-type', METRICS_CONTENT_TYPE)
  @ApiOperation({ operationId: 'getMetrics', summary: 'Prometheus metrics, text exposition format' })
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'Prometheus text format 0.0.4', schema: { type: 'string' } })
  metricsText(): Promise<string> {
    // The whole process's registry: the gateway's own metrics, and in all-in-one every service's.
    return metricsText();
  }
}
