/**
 * `object[key] = value` as a plain data property, whatever the key (`__proto__` included).
 * Only `__proto__` needs defineProperty on the plain objects this is given (Object.prototype
 * has no other setter); defineProperty for every key is far slower on the merge's hot path.
 */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}
