import { withoutSecrets } from './trace-payloads';

const SECRET = 'sk-live-0123456789abcdef';

describe('withoutSecrets', () => {
  it('cuts a secret out of object keys as well as strings, at any depth', () => {
    const answer = {
      output: { [SECRET]: 'echoed', list: [{ [`Bearer ${SECRET}`]: `Bearer ${SECRET}` }] },
      usage: { [SECRET]: 3, frames: 96 },
    };
    const redacted = withoutSecrets(answer, [SECRET]);
    expect(redacted).toEqual({
      output: { '[redacted]': 'echoed', list: [{ 'Bearer [redacted]': 'Bearer [redacted]' }] },
      usage: { '[redacted]': 3, frames: 96 },
    });
    expect(JSON.stringify(redacted)).not.toContain(SECRET);
  });

  it('keeps every value when two keys redact to the same text', () => {
    const redacted = withoutSecrets({ [`a${SECRET}`]: 1, 'a[redacted]': 2, [`a${SECRET}${SECRET}`]: 3 }, [SECRET]);
    expect(redacted).toEqual({ 'a[redacted]': 1, 'a[redacted] (2)': 2, 'a[redacted][redacted]': 3 });
  });

  it('keeps a __proto__ key an ordinary property', () => {
    const parsed = JSON.parse(`{"__proto__": {"${SECRET}": 1}}`) as object;
    const redacted = withoutSecrets(parsed, [SECRET]) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(redacted, '__proto__')?.value).toEqual({ '[redacted]': 1 });
  });
});
