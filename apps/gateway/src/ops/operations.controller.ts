import { BusClient } from '@cinetrace/bus';
import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Public } from '../auth/access.decorators';
import { HttpMetrics } from './http-metrics';

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

  /** Ready when the gateway's store and the bus both answer; else 503 naming what is down. */
  @Get('readyz')
  async ready() {
    const [store, bus] = await Promise.all([
      this.dataSource.query('SELECT 1').then(() => true, () => false),
      this.bus.isReachable(),
    ]);
    const checks = { store: store ? 'up' : 'down', bus: bus ? 'up' : 'down' };
    if (!store || !bus) {
      const down = Object.entries(checks).filter(([, s]) => s === 'down').map(([n]) => n);
      throw new DomainError(ErrorCode.Unavailable, `Not ready: ${down.join(', ')} unreachable`);
    }
    return { status: 'ok', checks };
  }

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  metricsText(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
