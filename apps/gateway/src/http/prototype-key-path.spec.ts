import { prototypeKeyPath } from './prototype-key-path';

describe('prototypeKeyPath', () => {
  it('names a __proto__ key, or a constructor holding a prototype, by its path', () => {
    expect(prototypeKeyPath(JSON.parse('{"a":[1,{"__proto__":{"x":1}}]}'))).toBe('a[1].__proto__');
    expect(prototypeKeyPath(JSON.parse('{"m":{"constructor":{"prototype":{"x":1}}}}'))).toBe('m.constructor.prototype');
    expect(prototypeKeyPath(JSON.parse('{"__proto__":1}'))).toBe('__proto__');
  });

  it('passes constructor and prototype keys that cannot reach a prototype', () => {
    expect(prototypeKeyPath(JSON.parse('{"constructor":1,"prototype":{"constructor":"x"},"c":{"constructor":{"name":1}}}'))).toBeUndefined();
    expect(prototypeKeyPath(JSON.parse('{"constructor":null,"list":[{"constructor":[]}]}'))).toBeUndefined();
  });
});
