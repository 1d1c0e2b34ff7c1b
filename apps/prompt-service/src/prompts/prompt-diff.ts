import type { FieldChange } from '@cinetrace/contracts';
import { createTwoFilesPatch } from 'diff';
import { diffPrompt, EditableFields } from './prompt-changes';

/**
 * Two versions compared: each editable field that differs, as `{ from, to }` (the
 * activity's form), and the content as a unified diff (the `diff` package, as `git diff`
 * would show it; empty when the content is the same).
 */
export function diffVersions(from: EditableFields & { version: number }, to: EditableFields & { version: number }): { changes: Record<string, FieldChange>; contentDiff: string } {
  const { name, content, labels, metadata } = to;
  const changes = diffPrompt(from, { name, content, labels, metadata } as never) as Record<string, FieldChange>;
  const contentDiff =
    from.content === to.content
      ? ''
      : createTwoFilesPatch(`version ${from.version}`, `version ${to.version}`, withEndOfLine(from.content as string), withEndOfLine(to.content as string), undefined, undefined, {
          context: 3,
        });
  return { changes, contentDiff };
}

/** A content without a final newline would otherwise end in "\ No newline at end of file" lines. */
const withEndOfLine = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
