import { DomainError, FieldError } from '@cinetrace/contracts';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { toFieldErrors } from './field-errors';

export type InputCheck<T> = { value: T; errors: FieldError[] };

/**
 * The validation pipe's checks as a function, for services that add their own checks
 * (ones that need the store) and answer every offending field in one 400.
 */
export async function checkInput<T extends object>(type: new () => T, raw: unknown): Promise<InputCheck<T>> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw DomainError.validation([{ path: 'body', message: 'must be a JSON object' }]);
  }
  const value = plainToInstance(type, raw);
  const errors = await validate(value, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, validationError: { target: false, value: false } });
  return { value, errors: toFieldErrors(errors) };
}
