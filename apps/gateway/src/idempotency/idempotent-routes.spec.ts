import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { Type } from '@nestjs/common';
import { GatewayModule } from '../gateway.module';
import { OtlpController } from '../otlp/otlp.controller';
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
  it('is taken by every POST route but the OTLP exports (idempotent by their span ids)', () => {
    const routes = postRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(14);
    const otlp = new Set(Object.getOwnPropertyNames(OtlpController.prototype).map((name) => `${OtlpController.name}.${name}`));
    for (const { route, idempotent } of routes) expect([route, idempotent]).toEqual([route, !otlp.has(route.split(' ')[0])]);
  });
});
