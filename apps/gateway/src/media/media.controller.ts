import { BusClient } from '@cinetrace/bus';
import { DomainError, ErrorCode, FetchMediaInput, ListEnvelope, MEDIA_STATUSES, MediaListRequest, MediaView, Patterns, ProjectContext } from '@cinetrace/contracts';
import { checkInput } from '@cinetrace/validation';
import { Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { RequiresScope } from '../auth/access.decorators';
import { Caller } from '../auth/caller';
import { ApiListResponse } from '../lists/api-list-response';
import type { FilterSpec } from '../lists/list-query';
import { ListResponder } from '../lists/list-responder';
import { requestedRange } from './byte-range';
import { MediaIntake } from './media-intake';
import { MediaUploadSlots } from './media-upload-slots';
import { mediaTypeOf } from '@cinetrace/media-fetch';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { preferredWaitMs } from '../http/prefer-wait';
import { untilSettled } from './media-wait';

const MEDIA_FILTERS = { contentType: 'string', status: 'string' } as const satisfies FilterSpec;

const location = (id: string) => `/api/v1/media/${id}`;

/**
 * /api/v1/media: project scope. The gateway moves the bytes itself (upload or fetch into the
 * blob store, ranged reads out of it); media-service keeps the rows and probes them.
 */
@ApiTags('Media')
@Controller('api/v1/media')
export class MediaController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
    private readonly intake: MediaIntake,
    private readonly uploads: MediaUploadSlots,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @RequiresScope('ingest')
  @ApiOperation({
    operationId: 'createMedia',
    summary: 'Store media: the bytes (video/*, image/*, audio/*) or JSON { url } to fetch a copy; 200 with the existing media when the project holds the same bytes',
  })
  @ApiBody({ type: FetchMediaInput })
  @ApiResponse({ status: 201, type: MediaView, description: 'Stored; `pending` until probed' })
  @ApiResponse({ status: 200, type: MediaView, description: 'The project already holds these bytes: that media' })
  @ApiResponse({ status: 429, description: 'rate_limited: the project is storing MEDIA_PROJECT_UPLOADS media already; retry after Retry-After' })
  async create(@Caller() ctx: ProjectContext, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<MediaView> {
    // Before the body is read: a project past its uploads in flight costs the gateway no bytes.
    const free = this.uploads.take(ctx.projectId);
    try {
      const source = await this.store(ctx, request);
      const { media, created } = await this.bus.request(Patterns.MediaRegister, {
        ctx,
        key: source.blob.key,
        sha256: source.blob.sha256,
        bytes: source.blob.bytes,
        contentType: source.contentType,
        sourceUrl: source.sourceUrl,
      });
      reply.status(created ? 201 : 200);
      if (created) reply.header('location', location(media.id));
      return media;
    } finally {
      free();
    }
  }

  @Get()
  @ApiOperation({ operationId: 'listMedia', summary: 'List media, newest first (filters: contentType, status)' })
  @ApiListResponse(MediaView, MEDIA_FILTERS)
  list(@Caller() ctx: ProjectContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<MediaView>> {
    return this.lists.respond('media', ctx, query, MEDIA_FILTERS, (filters, page: MediaListRequest['page']) => {
      if (filters.status !== undefined && !(MEDIA_STATUSES as readonly string[]).includes(filters.status)) {
        throw DomainError.validation([{ path: 'status', message: `must be one of ${MEDIA_STATUSES.join(', ')}` }]);
      }
      return this.bus.request(Patterns.MediaList, { ctx, filters: filters as MediaListRequest['filters'], page });
    });
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getMedia', summary: 'Get media: its status and, once probed, its probe' })
  @ApiHeader({ name: 'Prefer', required: false, description: '`wait` (or `wait=<seconds>`, at most 10): answer once the media is no longer `pending`, or when the wait ends' })
  @ApiResponse({ status: 200, type: MediaView })
  async get(
    @Caller() ctx: ProjectContext,
    @Param('id') id: string,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MediaView> {
    const read = () => this.bus.request(Patterns.MediaGet, { ctx, id });
    const waitMs = preferredWaitMs(prefer);
    if (waitMs === undefined) return read();
    const media = await untilSettled(read, waitMs);
    if (media.status !== 'pending') reply.header('preference-applied', 'wait');
    return media;
  }

  @Get(':id/content')
  @ApiOperation({ operationId: 'getMediaContent', summary: 'The bytes, with their content type; a Range (bytes=a-b, bytes=a-, bytes=-n) answers 206 with that part' })
  @ApiHeader({ name: 'Range', required: false, description: 'One byte range: `bytes=0-1023`, `bytes=1024-` or `bytes=-1024` (the last 1024); others are ignored' })
  async content(@Caller() ctx: ProjectContext, @Param('id') id: string, @Headers('range') rangeHeader: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const blob = await this.bus.request(Patterns.MediaBlob, { ctx, id });
    const range = requestedRange(rangeHeader);
    const read = await this.intake.read(blob.key, range);
    reply
      .status(range ? 206 : 200)
      .header('content-type', blob.contentType)
      .header('content-length', String(read.end - read.start + 1))
      .header('accept-ranges', 'bytes')
      // Stored bytes are the client's: never sniffed into another type, never run as a page of this origin (an SVG's script).
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox");
    if (range) reply.header('content-range', `bytes ${read.start}-${read.end}/${read.totalBytes}`);
    await reply.send(read.body);
  }

  /** The bytes of the request, stored: the body itself (a media type) or the answer of its `{ url }`. */
  private async store(ctx: ProjectContext, request: FastifyRequest) {
    const contentType = mediaTypeOf(request.headers['content-type']);
    if (request.body instanceof Readable) {
      if (!contentType) throw new DomainError(ErrorCode.UnsupportedMediaType, 'Send the bytes as video/*, image/* or audio/*, or JSON { url }');
      const encoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
      if (encoding !== 'identity') throw new DomainError(ErrorCode.UnsupportedMediaType, 'Send the media as it is, without Content-Encoding');
      return { blob: await this.intake.upload(ctx.projectId, request.body, request.raw), contentType, sourceUrl: null };
    }
    const { value: input, errors } = await checkInput(FetchMediaInput, request.body ?? {});
    if (errors.length) throw DomainError.validation(errors);
    const fetched = await this.intake.fetch(ctx.projectId, input.url, input.contentType);
    return { ...fetched, sourceUrl: input.url };
  }
}
