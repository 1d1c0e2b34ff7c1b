import type { ProjectContext } from '@cinetrace/contracts';
import { toProblem } from '@cinetrace/http-problem';
import { encodeExportResponse, encodeGrpcStatusDetails } from '@cinetrace/traces';
import * as grpc from '@grpc/grpc-js';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuthGuard } from '../auth/auth.guard';
import { ingestCaller } from '../auth/ingest-caller';
import { GatewayEnv } from '../gateway.env';
import { OtlpIngest } from './otlp-ingest';
import { GRPC_CODE_FOR_HTTP_STATUS_OVER_GRPC } from './otlp-status-codes';

/** The one method of OTLP's TraceService, on raw bytes: OtlpIngest decodes the request with the official protos. */
const TRACE_SERVICE: grpc.ServiceDefinition = {
  Export: {
    path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
    requestStream: false,
    responseStream: false,
    requestSerialize: (bytes: Buffer) => bytes,
    requestDeserialize: (bytes: Buffer) => bytes,
    responseSerialize: (bytes: Buffer) => bytes,
    responseDeserialize: (bytes: Buffer) => bytes,
  },
};

/**
 * OTLP/gRPC trace export on OTLP_GRPC_PORT (4317 by default, as collectors export to; 0
 * turns it off): the same auth (metadata `authorization` and `x-project-key`, the `ingest`
 * scope), mapping, limits and trace stream as POST /v1/traces. A port it cannot take is
 * logged and the gateway serves HTTP on (a collector on the same machine often holds 4317).
 */
@Injectable()
export class OtlpGrpcServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OtlpGrpc');
  private server?: grpc.Server;
  /** The port it listens on, once it does. */
  port?: number;

  constructor(
    private readonly env: GatewayEnv,
    private readonly auth: AuthGuard,
    private readonly otlp: OtlpIngest,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.env.OTLP_GRPC_PORT === 0) return;
    const limit = this.env.MAX_BODY_BYTES;
    // The limit holds after decompression too (grpc-js checks the decompressed message).
    const server = new grpc.Server({
      'grpc.max_receive_message_length': limit,
      'grpc.max_send_message_length': 1024 * 1024,
      interceptors: [this.keysBeforeMessage],
    });
    server.addService(TRACE_SERVICE, { Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => void this.export(call, callback) });
    const address = `${this.env.HOST.includes(':') ? `[${this.env.HOST}]` : this.env.HOST}:${this.env.OTLP_GRPC_PORT}`;
    try {
      this.port = await new Promise<number>((resolve, reject) =>
        server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
      );
      this.server = server;
      this.logger.log(`OTLP/gRPC trace export listening on ${address}`);
    } catch (err) {
      server.forceShutdown();
      this.logger.error(`OTLP/gRPC could not listen on ${address} (${(err as Error).message}); set OTLP_GRPC_PORT to a free port, or 0 to turn it off`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    // Calls under way finish (as HTTP requests do on shutdown), within a bound.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => (server.forceShutdown(), resolve()), 5000);
      server.tryShutdown(() => (clearTimeout(timer), resolve()));
    });
  }

  private async export(call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>): Promise<void> {
    const requestId = randomUUID();
    try {
      const ctx = await this.caller(call.metadata, requestId);
      const free = this.otlp.admit(ctx);
      try {
        const partial = await this.otlp.export(ctx, { encoding: 'protobuf', bytes: call.request });
        callback(null, encodeExportResponse('protobuf', partial).body as Buffer);
      } finally {
        free();
      }
    } catch (err) {
      callback(this.toGrpcError(err, requestId));
    }
  }

  /**
   * The keys are checked from the call's metadata before its message is read: grpc-js reads
   * (and decompresses) the message only once the metadata is passed on, so a caller without
   * a valid key costs no decompression (as OTLP/HTTP checks them before the body). The
   * handler asks again, from the auth cache.
   */
  private readonly keysBeforeMessage: grpc.ServerInterceptor = (_method, call) =>
    new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, passOn) => {
            const requestId = randomUUID();
            this.caller(metadata, requestId).then(
              () => passOn(metadata),
              (err: unknown) => call.sendStatus(this.toGrpcError(err, requestId)),
            );
          },
        }),
    });

  private caller(metadata: grpc.Metadata, requestId: string): Promise<ProjectContext> {
    const first = (name: string) => {
      const value = metadata.get(name)[0];
      return typeof value === 'string' ? value : undefined;
    };
    return ingestCaller(this.auth, { authorization: first('authorization'), projectKey: first('x-project-key') }, requestId);
  }

  /** The API's answer to `err`, as a gRPC status: the same words, never internals (logged instead, as HTTP does). */
  private toGrpcError(err: unknown, requestId: string): grpc.StatusObject {
    const problem = toProblem(err, requestId);
    if (problem.body.code === 'internal') {
      this.logger.error(`OTLP/gRPC export failed: ${(err as Error)?.name}: ${(err as Error)?.message} (request ${requestId})`);
    }
    const code: grpc.status = GRPC_CODE_FOR_HTTP_STATUS_OVER_GRPC[problem.body.status] ?? grpc.status.INTERNAL;
    const retryAfter = code === grpc.status.UNAVAILABLE ? (problem.retryAfter ?? 1) : undefined;
    const metadata = new grpc.Metadata();
    metadata.set('x-request-id', requestId);
    metadata.set('grpc-status-details-bin', encodeGrpcStatusDetails(code, problem.body.detail, retryAfter));
    return { code, details: problem.body.detail, metadata };
  }
}
