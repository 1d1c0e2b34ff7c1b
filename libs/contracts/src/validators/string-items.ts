import { ValidationOptions } from 'class-validator';
import { itemProblemsDecorator } from './item-problems';

/**
 * An array of distinct strings matching `pattern`, at most `maxItems`. Each bad item is
 * reported as its own line `[i] message`, which the validation lib turns into the path
 * `field[i]`, so a client learns exactly which item to fix.
 */
export function IsStringItems(rule: { pattern: RegExp; describe: string; maxItems: number }, options?: ValidationOptions): PropertyDecorator {
  const problems = (value: unknown): string[] => {
    if (!Array.isArray(value)) return ['must be an array of strings'];
    if (value.length > rule.maxItems) return [`must have at most ${rule.maxItems} items`];
    const seen = new Set<string>();
    const lines: string[] = [];
    value.forEach((item, index) => {
      if (typeof item !== 'string' || !rule.pattern.test(item)) lines.push(`[${index}] must be ${rule.describe}`);
      else if (seen.has(item)) lines.push(`[${index}] repeats '${item}': items must be distinct`);
      else seen.add(item);
    });
    return lines;
  };
  return itemProblemsDecorator('isStringItems', problems, options);
}
