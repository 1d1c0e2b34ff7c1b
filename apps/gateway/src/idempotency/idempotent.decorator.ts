import { UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * `Idempotency-Key` on this POST route (IdempotencyInterceptor). On each POST handler rather
 * than global: Nest wraps every interceptor of a route in an AsyncResource.bind of its own,
 * paid on every request, which the GETs, PUTs and DELETEs (that never use the key) and
 * the OTLP exports (idempotent by their span ids) need not pay. gateway-routes.spec.ts
 * checks that no other POST route lacks it.
 */
export const Idempotent = () => UseInterceptors(IdempotencyInterceptor);
