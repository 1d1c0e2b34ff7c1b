/** What the media row keeps of its storyboard: the keyframe instants (ms, ascending), or why it could not be made. */
export type StoredStoryboard = { atMs: number[] } | { error: string };
