import { ANNOTATION_COUNT_LABELS_MAX, type MediaAnnotationCountsReply } from '@cinetrace/contracts';

/**
 * Label counts (a label may come more than once: they are added up) merged
 * into a summary: the total, the most frequent labels first (ties by label, code-unit order) up
 * to `max`, and how many labels were left out. The map is built with own properties, so a
 * label such as `__proto__` is counted like any other.
 */
export function summarizeLabelCounts(counts: Iterable<{ label: string; count: number }>, max = ANNOTATION_COUNT_LABELS_MAX): MediaAnnotationCountsReply {
  const byLabel = new Map<string, number>();
  let total = 0;
  for (const { label, count } of counts) {
    byLabel.set(label, (byLabel.get(label) ?? 0) + count);
    total += count;
  }
  const ranked = [...byLabel].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0));
  return { total, labels: Object.fromEntries(ranked.slice(0, max)), labelsOmitted: Math.max(0, ranked.length - max) };
}
