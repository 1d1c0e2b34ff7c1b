import { useMemo } from 'react';
import type { PromptVersion } from '../api-types';
import { sideBySide } from '../prompt-diff';

/** Two versions' content, line against line; changed lines marked on both sides. */
export function VersionDiff({ before, after }: { before: PromptVersion; after: PromptVersion }) {
  const diff = useMemo(() => sideBySide(before.content, after.content), [before.content, after.content]);
  const mark = { same: '', changed: '~', removed: '−', added: '+' } as const;
  return (
    <div className="diff">
      <p className="pad muted" role="status">
        v{before.version} → v{after.version}: {diff.added ? `${diff.added} line${diff.added === 1 ? '' : 's'} added` : 'no line added'},{' '}
        {diff.removed ? `${diff.removed} removed` : 'none removed'}
        {before.name !== after.name ? ` · name "${before.name}" → "${after.name}"` : ''}
      </p>
      <table className="diff-table">
        <caption className="visually-hidden">
          Content of version {before.version} beside version {after.version}
        </caption>
        <colgroup>
          <col className="ln-col" />
          <col />
          <col className="ln-col" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col" colSpan={2}>
              v{before.version}
            </th>
            <th scope="col" colSpan={2}>
              v{after.version}
            </th>
          </tr>
        </thead>
        <tbody>
          {diff.rows.map((row, i) => (
            <tr key={i} className={`diff-${row.kind}`}>
              <td className="ln">{row.left?.number ?? ''}</td>
              <td className={`code ${row.left ? (row.kind === 'same' ? '' : 'old') : 'blank'}`}>
                {row.left && row.kind !== 'same' && <span className="visually-hidden">{row.kind === 'changed' ? 'changed from: ' : 'removed: '}</span>}
                {row.left?.text}
              </td>
              <td className="ln">{row.right?.number ?? ''}</td>
              <td className={`code ${row.right ? (row.kind === 'same' ? '' : 'new') : 'blank'}`} data-mark={mark[row.kind]}>
                {row.right && row.kind !== 'same' && <span className="visually-hidden">{row.kind === 'changed' ? 'changed to: ' : 'added: '}</span>}
                {row.right?.text}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
