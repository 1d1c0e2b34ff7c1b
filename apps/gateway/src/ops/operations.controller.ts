import { BusClient } from '@cinetrace/bus';
import { DomainError, ErrorCode, ServicePings } from '@cinetrace/contracts';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Public } from '../auth/access.decorators';
import { HttpMetrics } from './http-metrics';

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
    private readonly metrics: HttpMetrics,
  ) {}

  @Get('healthz')
  health() {
    return { status: 'ok' };
  }

  /**
   * Ready when the gateway's store, the bus and every service behind it answer (a service
   * answers once it is subscribed and serving); else 503 naming what is down.
   */
  @Get('readyz')
  async ready() {
    const services = Object.entries(ServicePings);
    const [store, bus, ...answering] = await Promise.all([
      this.dataSource.query('SELECT 1').then(() => true, () => false),
      this.bus.isReachable(),
      ...services.map(([, pattern]) => this.bus.answers(pattern, SERVICE_PING_MS)),
    ]);
    const state = (up: boolean) => (up ? 'up' : 'down');
    const serviceStates = Object.fromEntries(services.map(([name], i) => [name, state(answering[i])]));
    const down = [
      ...(store ? [] : ['store']),
      ...(bus ? [] : ['bus']),
      ...services.filter((_, i) => !answering[i]).map(([name]) => name),
    ];
    if (down.length > 0) throw new DomainError(ErrorCode.Unavailable, `Not ready: ${down.join(', ')} unreachable`);
    return { status: 'ok', checks: { store: state(store), bus: state(bus), services: serviceStates } };
  }

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  metricsText(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
