import { DomainError } from '@cinetrace/contracts';
import { ValidationPipe } from '@nestjs/common';
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
 * Nest's pipe deletes every `constructor` and `prototype` key at any depth, which would
 * silently drop them from free-form JSON a client stores (dataset items, metadata), and
 * class-transformer cannot rebuild an object holding an own `constructor`. Such keys are
 * refused instead, each named by its path: an error the client sees, never a silent loss.
 */
class DataKeepingValidationPipe extends ValidationPipe {
  protected override stripProtoKeys(value: unknown): void {
    const found: string[] = [];
    findReservedKeys(value, '', found);
    if (found.length) {
      throw DomainError.validation(
        found.map((path) => ({ path, message: 'is a reserved key name: constructor, prototype and __proto__ are not accepted' })),
      );
    }
  }
}

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function findReservedKeys(value: unknown, path: string, found: string[]): void {
  if (value === null || typeof value !== 'object' || found.length >= 20) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => findReservedKeys(item, `${path}[${i}]`, found));
    return;
  }
  for (const key of Object.keys(value)) {
    const at = path ? `${path}.${key}` : key;
    if (RESERVED_KEYS.has(key)) found.push(at);
    else findReservedKeys((value as Record<string, unknown>)[key], at, found);
  }
}
