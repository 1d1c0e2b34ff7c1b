import {
  ANNOTATION_COUNT_MEDIA_MAX,
  CreateMediaAnnotationInput,
  DomainError,
  type FieldError,
  type MediaAnnotationCountsReply,
  type MediaAnnotationListKey,
  type MediaAnnotationView,
  type Page,
  type PageRequest,
  type ProjectContext,
  rowsForPage,
  toPage,
} from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { mediaDurationMs } from '../media/media-readiness';
import type { Media } from '../store/media.entity';
import type { MediaAnnotation } from '../store/media-annotation.entity';
import { countLabelsOfMedia, insertMediaAnnotation, listMediaAnnotations } from '../store/media-annotations.queries';
import { findMedia } from '../store/media.queries';
import { toMediaAnnotationView } from './annotation.views';
import { summarizeLabelCounts } from './label-counts';

/** Time-coded annotations of a project's media: ranges checked against the probed duration; every query scoped by the project. */
@Injectable()
export class AnnotationsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(ctx: ProjectContext, mediaId: string, input: CreateMediaAnnotationInput): Promise<MediaAnnotationView> {
    const media = await this.existing(ctx, mediaId);
    const durationMs = mediaDurationMs(media, 'annotations');
    const errors: FieldError[] = [];
    if (input.startMs > durationMs) errors.push({ path: 'startMs', message: `is past the end of the media (${durationMs} ms)` });
    if (input.endMs > durationMs) errors.push({ path: 'endMs', message: `is past the end of the media (${durationMs} ms)` });
    else if (input.endMs < input.startMs) errors.push({ path: 'endMs', message: 'must not be before startMs' });
    if (errors.length) throw DomainError.validation(errors, 'The range is not within the media');
    const annotation: MediaAnnotation = {
      id: newId('man'),
      projectId: ctx.projectId,
      mediaId: media.id,
      startMs: input.startMs,
      endMs: input.endMs,
      label: input.label,
      score: input.score ?? null,
      comment: input.comment ?? null,
      createdAt: Date.now(),
    };
    await insertMediaAnnotation(this.dataSource.manager, annotation);
    return toMediaAnnotationView(annotation);
  }

  async list(ctx: ProjectContext, mediaId: string, page: PageRequest<MediaAnnotationListKey>): Promise<Page<MediaAnnotationView, MediaAnnotationListKey>> {
    const media = await this.existing(ctx, mediaId);
    const rows = await listMediaAnnotations(this.dataSource.manager, ctx.projectId, media.id, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row): MediaAnnotationListKey => [row.startMs, row.id]);
    return { items: items.map(toMediaAnnotationView), nextKey };
  }

  /** A run summary's counts: the annotations on those of `mediaIds` that are media of the caller's project, by label. */
  async countLabels(ctx: ProjectContext, mediaIds: unknown): Promise<MediaAnnotationCountsReply> {
    if (!Array.isArray(mediaIds) || mediaIds.length > ANNOTATION_COUNT_MEDIA_MAX || !mediaIds.every((id) => typeof id === 'string')) {
      throw DomainError.validation([{ path: 'mediaIds', message: `must be an array of at most ${ANNOTATION_COUNT_MEDIA_MAX} strings` }]);
    }
    const ids = [...new Set(mediaIds as string[])];
    return summarizeLabelCounts(ids.length ? await countLabelsOfMedia(this.dataSource.manager, ctx.projectId, ids) : []);
  }

  private async existing(ctx: ProjectContext, id: string): Promise<Media> {
    const media = await findMedia(this.dataSource.manager, ctx.projectId, id);
    if (!media) throw DomainError.notFound(`No media '${id}' in this project`);
    return media;
  }
}
