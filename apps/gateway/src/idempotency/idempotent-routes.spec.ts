import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { Type } from '@nestjs/common';
import { GatewayModule } from '../gateway.module';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** Every POST route of the gateway, with whether it takes Idempotency-Key. */
function postRoutes(): Array<{ route: string; idempotent: boolean }> {
  const controllers = (GatewayModule.register({ DATA_DIR: '/nonexistent' } as never, {} as never, {} as never).controllers ?? []) as Type[];
  const routes: Array<{ route: string; idempotent: boolean }> = [];
  for (const controller of controllers) {
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.POST) continue;
      const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
      const path = `${String(Reflect.getMetadata(PATH_METADATA, controller))}/${String(Reflect.getMetadata(PATH_METADATA, handler))}`;
      routes.push({ route: `${controller.name}.${name} POST ${path}`, idempotent: interceptors.includes(IdempotencyInterceptor) });
    }
  }
  return routes;
}

describe('Idempotency-Key on the POST routes', () => {
  // The OTLP exports, idempotent by their span ids, take none: they are served outside Nest (otlp-http.routes.ts).
  it('is taken by every POST route of the REST API', () => {
    const routes = postRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(12);
    for (const { route, idempotent } of routes) expect([route, idempotent]).toEqual([route, true]);
  });
});
