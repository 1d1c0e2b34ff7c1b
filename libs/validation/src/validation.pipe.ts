import { DomainError } from '@cinetrace/contracts';
import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { checkInput } from './check-input';
import { toFieldErrors } from './field-errors';

/**
 * The one validation pipe of the project, for HTTP bodies at the gateway and for bus
 * payloads at the services: unknown fields are refused (nothing is assigned behind the
 * client's back) and every failure is a `validation_failed` DomainError naming its paths.
 */
export function createValidationPipe(): ValidationPipe {
  return new DataKeepingValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => DomainError.validation(toFieldErrors(errors)),
  });
}

/**
 * Input classes are checked by checkInput, as the services that add their own checks do.
 * Nest's own pipe deletes every `constructor` and `prototype` key at any depth, which
 * would silently drop them from free-form JSON a client stores (dataset items, metadata),
 * and walks the value recursively. Neither is needed: the gateway's JSON parser refuses
 * `__proto__` keys, a `constructor` holding a `prototype`, and JSON nested past its limit,
 * and free-form fields are kept as they came (KeepJson), so other keys are data.
 */
class DataKeepingValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const type = metadata.metatype;
    if (!type || !this.toValidate(metadata)) return super.transform(value, metadata);
    // A POST without a body is checked as an empty object: the answer names the required fields.
    const { value: input, errors } = await checkInput(type as new () => object, value ?? {});
    if (errors.length) throw DomainError.validation(errors);
    return input;
  }
}
