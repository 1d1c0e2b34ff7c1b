import { DomainError, ErrorCode, ProjectContext } from '@cinetrace/contracts';
import { encodeExportResponse } from '@cinetrace/traces';
import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RequiresScope } from '../auth/access.decorators';
import { Caller } from '../auth/caller';
import { OtlpBody } from './otlp-body';
import { OtlpIngest } from './otlp-ingest';
import { OTLP_TRACE_ROUTES } from './otlp-routes';

/** OTLP/HTTP trace export (the OTLP specification's answers, not problem details: see GatewayExceptionFilter). */
@ApiTags('OpenTelemetry')
@Controller()
export class OtlpController {
  constructor(private readonly otlp: OtlpIngest) {}

  // One handler per route, so the OpenAPI document gets two plain operation ids (an array of paths gave `export[0]`).
  @Post(OTLP_TRACE_ROUTES[0].slice(1))
  @HttpCode(200)
  @RequiresScope('ingest')
  @ApiOperation({
    operationId: 'exportOtlpTraces',
    summary: 'OTLP/HTTP trace export (ExportTraceServiceRequest); spans merge into traces by their OTel trace id',
    description:
      "Protobuf or OTLP/JSON, optionally `Content-Encoding: gzip`. Answers an ExportTraceServiceResponse in the request's encoding " +
      '(`partialSuccess` when spans were rejected); errors are a google.rpc.Status. See the API reference, "OTLP ingest".',
  })
  @ApiConsumes('application/x-protobuf', 'application/json')
  @ApiProduces('application/x-protobuf', 'application/json')
  @ApiBody({
    description: 'An OTLP ExportTraceServiceRequest (opentelemetry-proto)',
    schema: { type: 'object', description: 'OTLP/JSON ExportTraceServiceRequest, or its protobuf encoding' },
  })
  @ApiResponse({ status: 200, description: 'ExportTraceServiceResponse' })
  export(@Caller() ctx: ProjectContext, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer | string> {
    return this.answer(ctx, body, reply);
  }

  @Post(OTLP_TRACE_ROUTES[1].slice(1))
  @HttpCode(200)
  @RequiresScope('ingest')
  @ApiOperation({ operationId: 'exportOtlpTracesUnderApi', summary: 'OTLP/HTTP trace export under the API prefix (the same as POST /v1/traces)' })
  @ApiConsumes('application/x-protobuf', 'application/json')
  @ApiProduces('application/x-protobuf', 'application/json')
  @ApiBody({
    description: 'An OTLP ExportTraceServiceRequest (opentelemetry-proto)',
    schema: { type: 'object', description: 'OTLP/JSON ExportTraceServiceRequest, or its protobuf encoding' },
  })
  @ApiResponse({ status: 200, description: 'ExportTraceServiceResponse' })
  exportUnderApi(@Caller() ctx: ProjectContext, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer | string> {
    return this.answer(ctx, body, reply);
  }

  private async answer(ctx: ProjectContext, body: unknown, reply: FastifyReply): Promise<Buffer | string> {
    if (!isOtlpBody(body)) throw new DomainError(ErrorCode.UnsupportedMediaType, 'Send application/x-protobuf or application/json');
    const partial = await this.otlp.export(ctx, body);
    const answer = encodeExportResponse(body.encoding, partial);
    reply.header('content-type', answer.contentType);
    return answer.body;
  }
}

function isOtlpBody(body: unknown): body is OtlpBody {
  return typeof body === 'object' && body !== null && Buffer.isBuffer((body as OtlpBody).bytes);
}
