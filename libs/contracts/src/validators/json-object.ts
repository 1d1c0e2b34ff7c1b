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
        validate: (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value) && Buffer.byteLength(JSON.stringify(value)) <= maxBytes,
        defaultMessage: () => `must be a JSON object of at most ${maxBytes} bytes serialised`,
      },
    });
}

/** Any JSON value, `null` included, whose serialised form fits in `maxBytes`; absent passes unless `required`. */
export function IsJsonValue(maxBytes: number, { required = false } = {}, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isJsonValue',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => (value === undefined ? !required : Buffer.byteLength(JSON.stringify(value) ?? '') <= maxBytes),
        defaultMessage: (args) => (args?.value === undefined ? 'is required (any JSON value)' : `must be at most ${maxBytes} bytes serialised`),
      },
    });
}
