import { ValidationOptions } from 'class-validator';
import { itemProblemsDecorator } from './item-problems';

/**
 * An object whose values all pass `valueOk`, with at most `maxKeys` keys of 1..100
 * characters. Each bad entry is its own line `.<key> message`, so the client's error
 * names the key (`gate.thresholds.exact_match`).
 */
export function IsObjectOf(rule: { valueOk: (value: unknown) => boolean; describe: string; maxKeys: number; minKeys?: number }, options?: ValidationOptions): PropertyDecorator {
  const problems = (value: unknown): string[] => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`must be an object of names to ${rule.describe}`];
    const entries = Object.entries(value);
    if (entries.length > rule.maxKeys) return [`must have at most ${rule.maxKeys} keys`];
    if (entries.length < (rule.minKeys ?? 0)) return [`must have at least ${rule.minKeys} key`];
    return entries.flatMap(([key, item]) => {
      if (key.length < 1 || key.length > 100) return [`.${key} is not a name of 1..100 characters`];
      return rule.valueOk(item) ? [] : [`.${key} must be ${rule.describe}`];
    });
  };
  return itemProblemsDecorator('isObjectOf', problems, options);
}
