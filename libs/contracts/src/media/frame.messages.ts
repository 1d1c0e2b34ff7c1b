import type { ProjectContext } from '../context';

/** A frame of a media at `atMs` (milliseconds from its start). */
export interface MediaFrameRequest {
  ctx: ProjectContext;
  id: string;
  atMs: number;
}

/**
 * A storyboard's keyframe instants once computed, or `pending` while its job runs (scene
 * detection reads the whole video, so it runs in the storyboard queue, not in a bus request).
 */
export type MediaStoryboardReply = { status: 'ready'; atMs: number[] } | { status: 'pending' };
