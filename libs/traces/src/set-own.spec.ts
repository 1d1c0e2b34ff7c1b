import { expect } from '@jest/globals';
import { setOwn } from './set-own';

describe('setOwn', () => {
  it('writes __proto__ as an own, enumerable data property, leaving the prototype alone', () => {
    const object: Record<string, unknown> = {};
    setOwn(object, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(Object.keys(object)).toEqual(['__proto__']);
    expect(JSON.stringify(object)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('writes and overwrites any other key in place, keeping the order of the keys', () => {
    const object = JSON.parse('{"a":1,"constructor":2}') as Record<string, unknown>;
    setOwn(object, 'b', 3);
    setOwn(object, 'a', 4);
    setOwn(object, 'toString', 5);
    expect(JSON.stringify(object)).toBe('{"a":4,"constructor":2,"b":3,"toString":5}');
  });
});
