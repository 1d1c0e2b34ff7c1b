import { BusClient, type PingAnswer } from '@cinetrace/bus';
import { DomainError, ErrorCode, ServicePings } from '@cinetrace/contracts';
import { METRICS_CONTENT_TYPE, metricsText } from '@cinetrace/metrics';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Public } from '../auth/access.decorators';

/** How long /readyz waits for each service's answer. */
const SERVICE_PING_MS = 2000;

/** Liveness, readiness and metrics: unauthenticated, for orchestrators and scrapers. */
@ApiExcludeController()
@Public()
@Controller()
export class OperationsController {
  constructor(
    private readonly bus: BusClient,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get('healthz')
  health() {
    return { status: 'ok' };
  }

  /**
   * Ready when the gateway's store, the bus, every service behind it (a service answers
   * once it is subscribed and serving) and the task queue (as benchmark-service sees it)
   * answer; else 503 naming what is down.
   */
  @Get('readyz')
  async ready() {
    const services = Object.entries(ServicePings);
    const [store, bus, ...answers] = await Promise.all([
      this.dataSource.query('SELECT 1').then(() => true, () => false),
      this.bus.isReachable(),
      ...services.map(([, pattern]) => this.bus.probeAnswer<PingAnswer>(pattern, SERVICE_PING_MS)),
    ]);
    const serviceUp = services.map((_, i) => answers[i] !== undefined && !Object.values(answers[i]?.checks ?? {}).includes('down'));
    const queue = answers[services.findIndex(([name]) => name === 'benchmark-service')]?.checks?.queue === 'up';
    const state = (up: boolean) => (up ? 'up' : 'down');
    const down = [
      ...(store ? [] : ['store']),
      ...(bus ? [] : ['bus']),
      ...(queue ? [] : ['queue']),
      ...services.filter((_, i) => !serviceUp[i]).map(([name]) => name),
    ];
    if (down.length > 0) throw new DomainError(ErrorCode.Unavailable, `Not ready: ${down.join(', ')} unreachable`);
    const serviceStates = Object.fromEntries(services.map(([name], i) => [name, state(serviceUp[i])]));
    return { status: 'ok', checks: { store: state(store), bus: state(bus), queue: state(queue), services: serviceStates } };
  }

  @Get('metrics')
  @Header('content-type', METRICS_CONTENT_TYPE)
  metricsText(): Promise<string> {
    // The whole process's registry: the gateway's own metrics, and in all-in-one every service's.
    return metricsText();
  }
}
