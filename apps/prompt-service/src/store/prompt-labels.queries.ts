import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { PromptLabel } from './prompt-label.entity';

/** The prompt's labels become `labels` (the table the list's label filter reads). */
export async function replacePromptLabels(tx: EntityManager, promptId: string, labels: string[]): Promise<void> {
  await tx.delete(PromptLabel, { promptId });
  if (labels.length)
    await insertRows(
      tx,
      PromptLabel,
      labels.map((label) => ({ promptId, label })),
    );
}
