import { DomainError } from '@cinetrace/contracts';
import { ValidationPipe } from '@nestjs/common';
import { toFieldErrors } from './field-errors';

/**
 * The one validation pipe of the project, for HTTP bodies at the gateway and for bus
 * payloads at the services: unknown fields are refused (nothing is assigned behind the
 * client's back) and every failure is a `validation_failed` DomainError naming its paths.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => DomainError.validation(toFieldErrors(errors)),
  });
}
