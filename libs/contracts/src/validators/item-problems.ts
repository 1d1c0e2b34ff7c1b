import { ValidationOptions, registerDecorator } from 'class-validator';

/**
 * A property decorator from a function listing what is wrong with a value, one line per bad
 * item as `[i] message`: the validation lib turns each line into the path `field[i]`.
 */
export function itemProblemsDecorator(name: string, problems: (value: unknown) => string[], options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => problems(value).length === 0,
        defaultMessage: (args) => problems(args?.value).join('\n'),
      },
    });
}
