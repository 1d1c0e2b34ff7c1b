import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';

// The storage the decorators write to; the package ships its types apart from its code.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

/**
 * A copy of a request body that class-transformer can walk whatever its keys.
 *
 * class-transformer rebuilds every nested object it meets where the input class declares
 * no class for it (an unknown field, an object where a string was expected): it takes an
 * own `constructor` key for the object's class, so `{ "x": { "constructor": 1 } }` made it
 * call `new 1()`, a 500. Such values are refused by the validators anyway (unknown field,
 * wrong type), so their `constructor` keys are left out of the copy; the validators then
 * name the field as usual. Fields that declare a class are copied by that class's rules,
 * and free-form JSON fields (KeepJson: declared Boolean, never walked) keep every key.
 */
export function transformableInput(type: Function, raw: Record<string, unknown>): Record<string, unknown> {
  return forClass(type, raw) as Record<string, unknown>;
}

function forClass(type: Function, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => forClass(type, item));
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const declared = defaultMetadataStorage.findTypeMetadata(type, key)?.typeFunction();
    const kept = declared === Boolean ? child : typeof declared === 'function' && declared !== Object ? forClass(declared, child) : withoutConstructorKeys(child);
    define(copy, key, kept);
  }
  return copy;
}

/** The value with every own `constructor` key left out, at any depth (the parser bounds the depth). */
function withoutConstructorKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutConstructorKeys);
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key !== 'constructor') define(copy, key, withoutConstructorKeys(child));
  }
  return copy;
}

/** Sets an own property, `__proto__` included, without ever touching the prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}
