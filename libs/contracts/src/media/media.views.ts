import { ApiProperty } from '@nestjs/swagger';

export const MEDIA_STATUSES = ['pending', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** What ffprobe read of the media (docs/api-reference.md, Media); nulls where a field does not apply (an image has no fps). */
export class MediaProbeView {
  @ApiProperty({ type: 'integer', nullable: true, example: 2000 }) durationMs: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 320 }) width: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 240 }) height: number | null;
  @ApiProperty({ type: 'number', nullable: true, example: 24 }) fps: number | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'h264' }) videoCodec: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: null }) audioCodec: string | null;
  @ApiProperty() hasAudio: boolean;
  @ApiProperty({ type: 'integer', nullable: true, example: 48211 }) bitRate: number | null;
}

export class MediaView {
  @ApiProperty({ example: 'med_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() projectId: string;
  @ApiProperty({ description: 'SHA-256 of the bytes (hex): the same bytes in one project are one media', pattern: '^[0-9a-f]{64}$' }) sha256: string;
  @ApiProperty({ example: 'video/mp4' }) contentType: string;
  @ApiProperty({ type: 'integer' }) bytes: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'The URL the copy was fetched from; null for an upload' }) sourceUrl: string | null;
  @ApiProperty({ enum: MEDIA_STATUSES, description: '`pending` until the probe ran' }) status: MediaStatus;
  @ApiProperty({ type: MediaProbeView, nullable: true, description: 'Set once `ready`' }) probe: MediaProbeView | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Why the probe failed; set once `failed`' }) error: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** Where a media's bytes are, for the gateway to stream them (never on the public API). */
export interface MediaBlobView {
  key: string;
  contentType: string;
  bytes: number;
}

/** A register's answer: the row, and whether this call made it (201) or found it (200). */
export interface MediaRegisteredView {
  media: MediaView;
  created: boolean;
}
