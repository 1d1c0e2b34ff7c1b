import { MEDIA_ID_PATTERN } from '@cinetrace/contracts';

/** The most media one task output records for its run's summary (an output naming more is rare; its others are not counted). */
export const OUTPUT_MEDIA_MAX = 100;

/**
 * The media ids a task output names: the `mediaId` string of any object, at any depth, that
 * looks like a media id (API.md, Media: a `{ mediaId }` reference), each once, in the order
 * met, at most `max`. Walked with a stack of its own, so a deeply nested output cannot
 * overflow the call stack; an output that is not an object costs one `typeof`.
 */
export function mediaIdsIn(output: unknown, max = OUTPUT_MEDIA_MAX): string[] {
  if (typeof output !== 'object' || output === null) return [];
  const found = new Set<string>();
  const pending: object[] = [output];
  while (pending.length && found.size < max) {
    const value = pending.pop()!;
    const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
    if (!Array.isArray(value)) {
      const mediaId = (value as Record<string, unknown>).mediaId;
      if (typeof mediaId === 'string' && MEDIA_ID_PATTERN.test(mediaId)) found.add(mediaId);
    }
    // Pushed in reverse, so the output is read in document order.
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (typeof child === 'object' && child !== null) pending.push(child);
    }
  }
  return [...found];
}
