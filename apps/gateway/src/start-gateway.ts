import type { BusClientConfig, StreamPublisher } from '@cinetrace/bus';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { bootLogger, useAppLogger } from '@cinetrace/logging';
import { Logger } from 'nestjs-pino';
import { GatewayEnv } from './gateway.env';
import { GATEWAY, GatewayModule } from './gateway.module';
import { consoleDistDir, serveConsole } from './http/console-pages';
import { createFastifyAdapter } from './http/fastify-adapter';
import { useLeanAsyncResourceBind } from './http/lean-async-bind';
import { registerMethodNotAllowed } from './http/method-not-allowed.routes';
import { HttpMetrics } from './ops/http-metrics';
import { AuthGuard } from './auth/auth.guard';
import { OTLP_BODY_INTAKE } from './ingest/otlp-body';
import { OtlpGrpcServer } from './ingest/otlp-grpc.server';
import { registerOtlpHttpRoutes } from './ingest/otlp-http.routes';
import { OtlpIngest } from './ingest/otlp-ingest';
import { serveTraceIngestFastPath } from './ingest/trace-ingest-fast-path';
import { MEDIA_BODY_INTAKE } from './media/media-body';
import { buildOpenApiDocument } from './openapi-document';
import { serveOpenApiDocument } from './openapi/serve-document';
import { TraceIngestor } from './traces/trace-ingestor';

/**
 * Starts the gateway on PORT, talking to services over the given bus (Kafka or
 * in-process) and publishing ingested data to the given streams.
 */
export async function startGateway(env: GatewayEnv, bus: BusClientConfig, streams: StreamPublisher): Promise<NestFastifyApplication> {
  useLeanAsyncResourceBind();
  const adapter = createFastifyAdapter(env, [OTLP_BODY_INTAKE, MEDIA_BODY_INTAKE]);
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.register(env, bus, streams), adapter, {
    logger: bootLogger(GATEWAY, env.LOG_LEVEL),
    abortOnError: false,
    // Fastify's own JSON parser only: Nest's would add form bodies, which the API refuses (415).
    bodyParser: false,
  });
  useAppLogger(app);
  const fastify = app.getHttpAdapter().getInstance();
  app.get(HttpMetrics).attach(fastify);
  registerMethodNotAllowed(fastify);
  registerOtlpHttpRoutes(fastify, app.get(AuthGuard), app.get(OtlpIngest));
  serveTraceIngestFastPath(fastify, app.get(AuthGuard), app.get(TraceIngestor));
  serveOpenApiDocument(app, buildOpenApiDocument(app));
  // The web console, when it was built (npm run build builds it with the apps).
  const consoleDir = consoleDistDir();
  if (consoleDir) serveConsole(fastify, consoleDir);
  else app.get(Logger).warn('The console is not built (apps/console/dist): / answers 404', 'Console');
  await app.listen(env.PORT, env.HOST);
  return app;
}

/** The port HTTP listens on (PORT, or the one the system chose for PORT=0). */
export function httpPortOf(app: NestFastifyApplication): number {
  return (app.getHttpServer().address() as AddressInfo).port;
}

/** The port OTLP/gRPC listens on: 0 when it is off, or could not take its port (then it logged why). */
export function otlpGrpcPortOf(app: NestFastifyApplication): number {
  return app.get(OtlpGrpcServer).port ?? 0;
}
