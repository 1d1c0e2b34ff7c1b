/**
 * The path of the first key through which a naive merge could reach an object's prototype:
 * a `__proto__` key, or a `constructor` key holding an object with a `prototype` key (what
 * secure-json-parse refuses, without saying where). Iterative, for a value already parsed
 * with JSON.parse, whose keys are own data properties and never touch a prototype.
 */
export function prototypeKeyPath(value: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[value, '']];
  // Breadth first, by index: shift() would make a body of a million items quadratic.
  for (let next = 0; next < pending.length; next++) {
    const [node, path] = pending[next];
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((item, i) => pending.push([item, `${path}[${i}]`]));
      continue;
    }
    const join = (key: string) => (path ? `${path}.${key}` : key);
    if (Object.hasOwn(node, '__proto__')) return join('__proto__');
    const ctor = (node as Record<string, unknown>).constructor;
    if (Object.hasOwn(node, 'constructor') && ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) {
      return join('constructor.prototype');
    }
    for (const [key, child] of Object.entries(node)) pending.push([child, join(key)]);
  }
  return undefined;
}
