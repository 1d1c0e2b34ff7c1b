import { isEmptyCounts, type UsageCounts } from '@cinetrace/traces';
import type { UpsertTable } from './sql-builder';

/**
 * How the usage tree (libs/traces, usage-tree.ts) is stored: how many of each span's
 * children's subtrees carry each usage key and a cost, in two columns of its row
 * (`usage_below`: JSON of counts per key, NULL for none; `cost_below`), and the same counts
 * for a parent not stored yet in a row of its own.
 */
// Columns packed by hand, as the table has them:
// prettier-ignore
export const AWAITING_TABLE: UpsertTable = {
  name: 'span_usage_awaiting',
  columns: [['project_id', 'text'], ['trace_id', 'text'], ['parent_id', 'text'], ['usage', 'text'], ['cost', 'int4']],
  key: ['project_id', 'trace_id', 'parent_id'],
  update: ['usage', 'cost'],
};

/** A span row's counts; undefined when its descendants carry nothing. */
export function belowFromRow(row: Record<string, unknown>): UsageCounts | undefined {
  const usage = row.usage_below;
  const cost = Number(row.cost_below ?? 0);
  if ((usage === null || usage === undefined) && cost === 0) return undefined;
  return { usage: usage === null || usage === undefined ? {} : (JSON.parse(String(usage)) as Record<string, number>), cost };
}

/** The `usage_below` and `cost_below` cells of a span's row. */
export function belowCells(below: UsageCounts | undefined): [usage: string | null, cost: number] {
  if (isEmptyCounts(below)) return [null, 0];
  let any = false;
  for (const _ in below!.usage) {
    any = true;
    break;
  }
  return [any ? JSON.stringify(below!.usage) : null, below!.cost];
}

export function awaitingFromRow(row: Record<string, unknown>): UsageCounts {
  return { usage: JSON.parse(String(row.usage)) as Record<string, number>, cost: Number(row.cost) };
}

export const awaitingRow = (projectId: string, traceId: string, parentId: string, counts: UsageCounts): unknown[] => [
  projectId,
  traceId,
  parentId,
  JSON.stringify(counts.usage),
  counts.cost,
];
