import { DomainError, ErrorCode, ProjectContext } from '@cinetrace/contracts';
import { encodeExportResponse } from '@cinetrace/traces';
import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RequiresScope } from '../auth/access.decorators';
import { Caller } from '../auth/caller';
import { OtlpBody } from './otlp-body';
import { OtlpIngest } from './otlp-ingest';
import { OTLP_TRACE_ROUTES } from './otlp-routes';

/** OTLP/HTTP trace export (the OTLP specification's answers, not problem details: see GatewayExceptionFilter). */
@ApiTags('OpenTelemetry')
@ApiSecurity('bearer')
@ApiHeader({ name: 'X-Project-Key', required: true })
@Controller()
export class OtlpController {
  constructor(private readonly otlp: OtlpIngest) {}

  @Post(OTLP_TRACE_ROUTES.map((route) => route.slice(1)))
  @HttpCode(200)
  @RequiresScope('ingest')
  @ApiOperation({
    summary: 'OTLP/HTTP trace export (ExportTraceServiceRequest); spans merge into traces by their OTel trace id',
    description:
      'Protobuf or OTLP/JSON, optionally `Content-Encoding: gzip`. Answers an ExportTraceServiceResponse in the request\'s encoding ' +
      '(`partialSuccess` when spans were rejected); errors are a google.rpc.Status. See the API reference, "OTLP ingest".',
  })
  @ApiConsumes('application/x-protobuf', 'application/json')
  @ApiProduces('application/x-protobuf', 'application/json')
  @ApiBody({ description: 'An OTLP ExportTraceServiceRequest (opentelemetry-proto)', schema: { type: 'object', description: 'OTLP/JSON ExportTraceServiceRequest, or its protobuf encoding' } })
  @ApiResponse({ status: 200, description: 'ExportTraceServiceResponse' })
  async export(@Caller() ctx: ProjectContext, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer | string> {
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
