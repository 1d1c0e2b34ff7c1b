import { checkReadiness, type DependencyChecks, type DependencyState } from '@cinetrace/health';
import { Inject, Optional, Type } from '@nestjs/common';
import type { PingReply, ServicePings } from '@cinetrace/contracts';
import { BusController } from './bus-controller.decorator';
import { Handles } from './handles.decorator';

/** Provider token: what a service checks of its own when pinged (benchmark-service: its task queue). */
export const SERVICE_CHECKS = Symbol('SERVICE_CHECKS');

/** How long a service's own checks may take, inside the 2 s the gateway waits for the answer. */
const SERVICE_CHECK_MS = 1500;

export interface PingAnswer extends PingReply {
  checks?: Record<string, DependencyState>;
}

/**
 * A bus controller answering `pattern`: proof that the service is subscribed and serving,
 * which the gateway's readiness check asks of every service, with the states of the
 * service's own dependencies when it provides SERVICE_CHECKS.
 */
export function pingController(pattern: (typeof ServicePings)[keyof typeof ServicePings]): Type<unknown> {
  @BusController()
  class PingController {
    constructor(@Optional() @Inject(SERVICE_CHECKS) private readonly checks?: DependencyChecks) {}

    @Handles(pattern)
    async ping(): Promise<PingAnswer> {
      if (!this.checks) return { status: 'ok' };
      return { status: 'ok', checks: (await checkReadiness(this.checks, SERVICE_CHECK_MS)).checks };
    }
  }
  return PingController;
}
