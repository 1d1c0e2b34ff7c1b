import { BusClient } from '@cinetrace/bus';
import {
  CreateMediaAnnotationInput,
  DomainError,
  ErrorCode,
  ListEnvelope,
  MediaAnnotationListRequest,
  MediaAnnotationView,
  MediaStoryboardView,
  Patterns,
  ProjectContext,
} from '@cinetrace/contracts';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { Caller } from '../auth/caller';
import { GatewayEnv } from '../gateway.env';
import { parseResourceQuery } from '../http/resource-query';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ApiListResponse } from '../lists/api-list-response';
import { ListResponder } from '../lists/list-responder';
import { MediaIntake } from './media-intake';

/** How often a storyboard request asks media-service whether its job has stored the keyframes. */
const STORYBOARD_POLL_MS = 250;

export const frameUrl = (id: string, atMs: number) => `/api/v1/media/${encodeURIComponent(id)}/frames?atMs=${atMs}`;

/**
 * What a reviewer reads of a media beyond its bytes: frames (JPEGs media-service renders once
 * and stores beside the media, streamed from the blob store here), the storyboard, and
 * time-coded annotations. Project scope; a thin adapter to media-service.
 */
@ApiTags('Media')
@Controller('api/v1/media')
export class MediaReviewController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
    private readonly intake: MediaIntake,
    private readonly env: GatewayEnv,
  ) {}

  @Get(':id/frames')
  @ApiOperation({
    operationId: 'getMediaFrame',
    summary: 'The frame at atMs as a JPEG (at most 1280 wide); rendered at the first request, then served from storage',
  })
  @ApiQuery({ name: 'atMs', required: true, schema: { type: 'integer', minimum: 0 }, description: 'The instant, in milliseconds from the start (0 up to the probed duration)' })
  async frame(@Caller() ctx: ProjectContext, @Param('id') id: string, @Query() query: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    const { atMs } = parseResourceQuery(query, { atMs: 'non-negative-int' });
    if (atMs === undefined) throw DomainError.validation([{ path: 'atMs', message: 'is required (milliseconds from the start)' }]);
    const frame = await this.bus.request(Patterns.MediaFrame, { ctx, id, atMs });
    const read = await this.intake.read(frame.key, undefined);
    reply
      .status(200)
      .header('content-type', 'image/jpeg')
      .header('content-length', String(read.totalBytes))
      // The media's bytes are content-addressed, so this instant's picture never changes; private, as it needs the caller's key.
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox");
    await reply.send(read.body);
  }

  @Get(':id/storyboard')
  @ApiOperation({
    operationId: 'getMediaStoryboard',
    summary:
      'Keyframes at scene cuts, the first frame and at least one per 10 s, each with its frame URL; computed once (waits up to STORYBOARD_WAIT_MS, then 503 with Retry-After while it runs)',
  })
  @ApiResponse({ status: 200, type: MediaStoryboardView })
  async storyboard(@Caller() ctx: ProjectContext, @Param('id') id: string): Promise<MediaStoryboardView> {
    const deadline = Date.now() + this.env.STORYBOARD_WAIT_MS;
    for (;;) {
      const answer = await this.bus.request(Patterns.MediaStoryboard, { ctx, id });
      if (answer.status === 'ready') return { data: answer.atMs.map((atMs) => ({ atMs, frameUrl: frameUrl(id, atMs) })) };
      if (Date.now() + STORYBOARD_POLL_MS > deadline) {
        throw new DomainError(ErrorCode.Unavailable, 'The storyboard is still being computed (scene detection reads the whole video); retry later', undefined, 5);
      }
      await sleep(STORYBOARD_POLL_MS);
    }
  }

  @Post(':id/annotations')
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createMediaAnnotation',
    summary: 'Mark a time range of a media with a label (and a score, a comment); the range must lie within the probed duration',
  })
  @ApiResponse({ status: 201, type: MediaAnnotationView })
  createAnnotation(@Caller() ctx: ProjectContext, @Param('id') id: string, @Body() input: CreateMediaAnnotationInput): Promise<MediaAnnotationView> {
    return this.bus.request(Patterns.MediaAnnotationCreate, { ctx, mediaId: id, input });
  }

  @Get(':id/annotations')
  @ApiOperation({ operationId: 'listMediaAnnotations', summary: "A media's annotations by startMs (then id)" })
  @ApiListResponse(MediaAnnotationView)
  annotations(@Caller() ctx: ProjectContext, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ListEnvelope<MediaAnnotationView>> {
    return this.lists.respond(`media/${id}/annotations`, ctx, query, {}, (_, page: MediaAnnotationListRequest['page']) =>
      this.bus.request(Patterns.MediaAnnotationList, { ctx, mediaId: id, page }),
    );
  }
}
