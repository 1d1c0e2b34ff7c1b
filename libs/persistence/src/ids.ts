import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/**
 * A prefixed, time-sortable id (`prj_01jh8z…`): a ULID, monotonic within the process,
 * lower-cased (which keeps its sort order), so ordering by id is ordering by creation.
 */
export function newId(prefix: string): string {
  return `${prefix}_${nextUlid().toLowerCase()}`;
}
