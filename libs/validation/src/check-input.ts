import { DomainError, FieldError } from '@cinetrace/contracts';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { toFieldErrors } from './field-errors';
import { transformableInput } from './transformable-input';

export type InputCheck<T> = { value: T; errors: FieldError[] };

const WHITELIST_MESSAGE = 'is not accepted here (unknown or read-only field)';

/**
 * The validation pipe's checks as a function, for services that add their own checks
 * (ones that need the store) and answer every offending field in one 400.
 */
export async function checkInput<T extends object>(type: new () => T, raw: unknown): Promise<InputCheck<T>> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw DomainError.validation([{ path: 'body', message: 'must be a JSON object' }]);
  }
  const value = plainToInstance(type, transformableInput(type, raw as Record<string, unknown>));
  const errors = await validate(value, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, validationError: { target: false, value: false } });
  return { value, errors: distinct([...toFieldErrors(errors), ...keysNoInputHas(raw, value)]) };
}

/** Two rules may say the same of one field (an item that is not an object): it is said once. */
function distinct(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.path}\u0000${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * class-transformer never copies a `constructor` or `__proto__` key onto the object it
 * builds, so the whitelist cannot see one sent where the input declares its fields (the
 * body, `runner`, `items[3]`): it would be dropped without a word. They are named here,
 * as every unknown field is. Free-form JSON fields (metadata, item input) keep them as data.
 */
function keysNoInputHas(raw: unknown, built: unknown, path = ''): FieldError[] {
  if (!isInputInstance(built) || raw === null || typeof raw !== 'object') return [];
  const errors: FieldError[] = [];
  for (const key of ['constructor', '__proto__']) {
    if (Object.hasOwn(raw, key)) errors.push({ path: path ? `${path}.${key}` : key, message: WHITELIST_MESSAGE });
  }
  for (const [key, child] of Object.entries(built)) {
    const from = (raw as Record<string, unknown>)[key];
    const at = path ? `${path}.${key}` : key;
    if (Array.isArray(child) && Array.isArray(from)) child.forEach((item, i) => errors.push(...keysNoInputHas(from[i], item, `${at}[${i}]`)));
    else errors.push(...keysNoInputHas(from, child, at));
  }
  return errors;
}

/** An object built from an input class (not free-form JSON, which stays a plain object). */
function isInputInstance(value: unknown): value is object {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype !== null && prototype !== Object.prototype;
}
