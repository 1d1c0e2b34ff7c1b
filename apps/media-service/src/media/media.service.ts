import {
  DomainError,
  ErrorCode,
  MediaBlobView,
  MediaListFilters,
  MediaListKey,
  MediaRegisteredView,
  MediaRegisterRequest,
  MediaView,
  Page,
  PageRequest,
  ProjectContext,
  rowsForPage,
  toPage,
} from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { isUniqueViolation } from '@cinetrace/persistence';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Media } from '../store/media.entity';
import { findMedia, findMediaBySha256, insertMedia, listMedia } from '../store/media.queries';
import { toMediaBlobView, toMediaView } from './media.views';
import { mediaJob, PROBE_QUEUE, type MediaJobQueue } from './media-jobs';

/** Media rows of a project: registered after the gateway stored the bytes, probed in the background; every query scoped by the project. */
@Injectable()
export class MediaService {
  private readonly logger = new Logger(MediaService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PROBE_QUEUE) private readonly probes: MediaJobQueue,
  ) {}

  /** A new row for a blob (`pending`, its probe queued), or the project's row for the same bytes as it is. */
  register(request: MediaRegisterRequest): Promise<MediaRegisteredView> {
    const { ctx, ...blob } = request;
    return this.registerBlob(ctx.projectId, blob);
  }

  /** register() for a blob media-service stored itself (a copy of a media a trace output names): the project is the copy's. */
  async registerBlob(projectId: string, blob: Omit<MediaRegisterRequest, 'ctx'>): Promise<MediaRegisteredView> {
    const { key, sha256, bytes, contentType, sourceUrl } = blob;
    // The key is the blob store's `<project>/<sha256>`: a row may only name a blob of its own project.
    if (key !== `${projectId}/${sha256}`) throw DomainError.validation([{ path: 'key', message: "is not this project's blob" }]);
    const existing = await findMediaBySha256(this.dataSource.manager, projectId, sha256);
    if (existing) return { media: toMediaView(existing), created: false };
    const media: Media = {
      id: newId('med'),
      projectId,
      sha256,
      contentType,
      bytes,
      blobKey: key,
      sourceUrl,
      status: 'pending',
      probe: null,
      error: null,
      createdAt: Date.now(),
    };
    try {
      await insertMedia(this.dataSource.manager, media);
    } catch (err) {
      // The same bytes registered at the same moment: the other call's row is the one.
      if (!isUniqueViolation(err)) throw err;
      const winner = await findMediaBySha256(this.dataSource.manager, projectId, sha256);
      if (!winner) throw err;
      return { media: toMediaView(winner), created: false };
    }
    // The row is accepted either way: a probe that cannot be queued now is queued by the sweep.
    await this.probes
      .enqueue([mediaJob({ id: media.id, projectId })])
      .catch((err: Error) => this.logger.warn(`Probe of ${media.id} not queued yet (the sweep will): ${err.message}`));
    return { media: toMediaView(media), created: true };
  }

  async get(ctx: ProjectContext, id: string): Promise<MediaView> {
    return toMediaView(await this.existing(ctx, id));
  }

  async blob(ctx: ProjectContext, id: string): Promise<MediaBlobView> {
    return toMediaBlobView(await this.existing(ctx, id));
  }

  async list(ctx: ProjectContext, filters: MediaListFilters, page: PageRequest<MediaListKey>): Promise<Page<MediaView, MediaListKey>> {
    const rows = await listMedia(this.dataSource.manager, ctx.projectId, filters, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.id);
    return { items: items.map(toMediaView), nextKey };
  }

  private async existing(ctx: ProjectContext, id: string): Promise<Media> {
    const media = await findMedia(this.dataSource.manager, ctx.projectId, id);
    if (!media) throw new DomainError(ErrorCode.NotFound, `No media '${id}' in this project`);
    return media;
  }
}
