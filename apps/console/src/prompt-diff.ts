import { diffLines } from 'diff';

// Two prompt versions side by side, line against line: the `diff` library finds the
// changed lines, and this pairs a block of removed lines with the block added in its
// place, so a changed line sits beside its new text.

export type Side = { number: number; text: string } | null;
export type RowKind = 'same' | 'changed' | 'removed' | 'added';

export interface DiffRow {
  kind: RowKind;
  left: Side;
  right: Side;
}

export interface SideBySide {
  rows: DiffRow[];
  added: number;
  removed: number;
}

/** Splits a chunk the diff library gives into its lines (the last newline ends a line, it does not start one). */
function linesOf(value: string): string[] {
  const lines = value.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function sideBySide(before: string, after: string): SideBySide {
  const rows: DiffRow[] = [];
  let left = 1;
  let right = 1;
  let added = 0;
  let removed = 0;
  let pendingRemoved: string[] = [];

  const flushRemoved = (addedLines: string[] = []) => {
    const pairs = Math.max(pendingRemoved.length, addedLines.length);
    for (let i = 0; i < pairs; i++) {
      const l = i < pendingRemoved.length ? { number: left++, text: pendingRemoved[i] } : null;
      const r = i < addedLines.length ? { number: right++, text: addedLines[i] } : null;
      rows.push({ kind: l && r ? 'changed' : l ? 'removed' : 'added', left: l, right: r });
    }
    removed += pendingRemoved.length;
    added += addedLines.length;
    pendingRemoved = [];
  };

  // Lines compared without a trailing newline, so the last line of a text without one
  // does not show as changed when a line is appended after it.
  for (const part of diffLines(before, after, { ignoreNewlineAtEof: true })) {
    const lines = linesOf(part.value);
    if (part.removed) pendingRemoved.push(...lines);
    else if (part.added) flushRemoved(lines);
    else {
      flushRemoved();
      for (const text of lines) rows.push({ kind: 'same', left: { number: left++, text }, right: { number: right++, text } });
    }
  }
  flushRemoved();
  return { rows, added, removed };
}
