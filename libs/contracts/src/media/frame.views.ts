import { ApiProperty } from '@nestjs/swagger';

/** Where a frame's JPEG is stored (a blob beside the media's), for the gateway to stream it (never on the public API). */
export interface MediaFrameBlobView {
  key: string;
  bytes: number;
}

export class StoryboardFrameView {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The keyframe, in milliseconds from the start', example: 3000 }) atMs: number;
  @ApiProperty({ description: 'The frames route for that instant (a JPEG, cached like any frame)', example: '/api/v1/media/med_01jh8z6v9q3m2r7x5c4b1n0k8d/frames?atMs=3000' })
  frameUrl: string;
}

/** `GET /api/v1/media/{id}/storyboard`: keyframes at scene cuts, the first frame, and at least one per 10 s, in time order. */
export class MediaStoryboardView {
  @ApiProperty({ type: [StoryboardFrameView] }) data: StoryboardFrameView[];
}
