import { FieldChange, PROMPT_MUTABLE_FIELDS, PromptMutableField, UpdatePromptInput } from '@cinetrace/contracts';

export type EditableFields = Record<PromptMutableField, unknown>;

/**
 * What a PUT would change: each sent field whose value differs from the stored one, as
 * `{ from, to }`. Objects compare by content (key order aside) and labels as a set, so
 * re-sending what is stored is no change and writes no version.
 */
export function diffPrompt(current: EditableFields, input: UpdatePromptInput): Partial<Record<PromptMutableField, FieldChange>> {
  const changes: Partial<Record<PromptMutableField, FieldChange>> = {};
  for (const field of PROMPT_MUTABLE_FIELDS) {
    const next = input[field];
    if (next === undefined) continue;
    if (!sameValue(field, current[field], next)) changes[field] = { from: current[field], to: next };
  }
  return changes;
}

function sameValue(field: PromptMutableField, a: unknown, b: unknown): boolean {
  if (field === 'labels') return canonical([...(a as string[])].sort()) === canonical([...(b as string[])].sort());
  return canonical(a) === canonical(b);
}

/** JSON with object keys sorted, for comparing by content. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v,
  );
}
