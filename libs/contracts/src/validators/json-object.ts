import { ValidationOptions, registerDecorator } from 'class-validator';

/** A plain JSON object (not an array, not null) whose serialised form fits in `maxBytes`. */
export function IsJsonObject(maxBytes: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isJsonObject',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) =>
          value !== null &&
          typeof value === 'object' &&
          !Array.isArray(value) &&
          Buffer.byteLength(JSON.stringify(value)) <= maxBytes,
        defaultMessage: () => `must be a JSON object of at most ${maxBytes} bytes serialised`,
      },
    });
}
