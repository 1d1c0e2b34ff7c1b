/** `object[key] = value` as a plain data property, whatever the key (`__proto__` included). */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}
