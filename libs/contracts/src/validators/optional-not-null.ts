import { ValidateIf, ValidationOptions } from 'class-validator';

/**
 * Like @IsOptional, but only an absent field is skipped: an explicit `null` is still
 * validated (and refused), so `{ "labels": null }` cannot slip through as "not sent".
 */
export function OptionalNotNull(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_, value) => value !== undefined, options);
}
