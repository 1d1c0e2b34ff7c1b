import type { FieldChange } from '@cinetrace/contracts';
import { createTwoFilesPatch, formatPatch } from 'diff';
import { diffPrompt, EditableFields } from './prompt-changes';

/**
 * The line edits the exact diff may look for. Myers' diff costs about (lines × edits) and
 * edits², so two very different 100,000-character versions held the event loop for minutes.
 * The search stops at MAX_EDIT_LENGTH edits, and at fewer for long contents, so that lines
 * × edits stays within EDIT_STEPS_BUDGET: tens of milliseconds at worst (docs/api-reference.md,
 * "Diff and render").
 */
export const MAX_EDIT_LENGTH = 400;
const MIN_EDIT_LENGTH = 64;
const EDIT_STEPS_BUDGET = 4_000_000;
/** A last guard should the cost model above be wrong for some input: the diff gives up after this long. */
const DIFF_TIMEOUT_MS = 250;

const context = 3;

type Version = EditableFields & { version: number };

/**
 * Two versions compared: each editable field that differs, as `{ from, to }` (the
 * activity's form), and the content as a unified diff (the `diff` package, as `git diff`
 * would show it; empty when the content is the same). Past the edit budget the content's
 * diff is still exact (it applies), but not the smallest: the lines from the first
 * difference to the last are one removed block and one added block.
 */
export function diffVersions(from: Version, to: Version): { changes: Record<string, FieldChange>; contentDiff: string } {
  const { name, content, labels, metadata } = to;
  const changes = diffPrompt(from, { name, content, labels, metadata } as never) as Record<string, FieldChange>;
  const contentDiff = from.content === to.content ? '' : contentPatch(from.version, to.version, withEndOfLine(from.content as string), withEndOfLine(to.content as string));
  return { changes, contentDiff };
}

function contentPatch(fromVersion: number, toVersion: number, older: string, newer: string): string {
  const [oldName, newName] = [`version ${fromVersion}`, `version ${toVersion}`];
  const maxEditLength = editLengthFor(lineCount(older) + lineCount(newer));
  const exact = createTwoFilesPatch(oldName, newName, older, newer, undefined, undefined, { context, maxEditLength, timeout: DIFF_TIMEOUT_MS });
  return exact ?? blockPatch(oldName, newName, older, newer);
}

export function editLengthFor(lines: number): number {
  return Math.min(MAX_EDIT_LENGTH, Math.max(MIN_EDIT_LENGTH, Math.floor(EDIT_STEPS_BUDGET / Math.max(lines, 1))));
}

/** In linear time: the common first and last lines kept, everything between replaced, as one hunk with its context. */
export function blockPatch(oldName: string, newName: string, older: string, newer: string): string {
  const a = linesOf(older);
  const b = linesOf(newer);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const before = Math.min(context, head);
  const after = Math.min(context, tail);
  const lines = [
    ...a.slice(head - before, head).map((line) => ` ${line}`),
    ...a.slice(head, a.length - tail).map((line) => `-${line}`),
    ...b.slice(head, b.length - tail).map((line) => `+${line}`),
    ...a.slice(a.length - tail, a.length - tail + after).map((line) => ` ${line}`),
  ];
  const hunk = {
    oldStart: head - before + 1,
    oldLines: before + (a.length - tail - head) + after,
    newStart: head - before + 1,
    newLines: before + (b.length - tail - head) + after,
    lines,
  };
  return formatPatch({ oldFileName: oldName, newFileName: newName, oldHeader: undefined, newHeader: undefined, hunks: [hunk] });
}

/** The lines of a text that ends with a newline, without their newlines. */
const linesOf = (text: string) => text.slice(0, -1).split('\n');

function lineCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** A content without a final newline would otherwise end in "\ No newline at end of file" lines. */
const withEndOfLine = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
