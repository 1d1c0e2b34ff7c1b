import { ValidationOptions } from 'class-validator';
import { itemProblemsDecorator } from './item-problems';

/**
 * Each item of an array is a JSON object. class-validator's @ValidateNested looks inside an
 * array item that is itself an array instead of refusing it (`{ "items": [[]] }` passed,
 * then failed in the database), so this names every item that is not an object, as
 * `[i] message` lines the validation lib turns into the path `field[i]`.
 */
export function IsObjectItems(message: string, options?: ValidationOptions): PropertyDecorator {
  const problems = (value: unknown): string[] =>
    Array.isArray(value) ? value.flatMap((item, index) => (item !== null && typeof item === 'object' && !Array.isArray(item) ? [] : [`[${index}] ${message}`])) : [];
  return itemProblemsDecorator('isObjectItems', problems, options);
}
