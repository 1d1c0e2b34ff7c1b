import { Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { BusController } from './bus-controller.decorator';

/**
 * A bus controller answering `pattern` with `{ status: 'ok' }`: proof that the service is
 * subscribed and serving, which the gateway's readiness check asks of every service.
 */
export function pingController(pattern: string): Type<unknown> {
  @BusController()
  class PingController {
    @MessagePattern(pattern)
    ping() {
      return { status: 'ok' };
    }
  }
  return PingController;
}
