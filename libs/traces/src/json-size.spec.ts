import { fitsJsonBytes } from './json-size';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('fitsJsonBytes', () => {
  it('agrees with JSON.stringify at the limit, for values whose bound settles it and for those it must measure', () => {
    const values: unknown[] = [
      'plain',
      'é'.repeat(300),
      '\u0001'.repeat(50), // escapes: 6 bytes each
      '😀'.repeat(40),
      { a: 1, b: [true, null, 2.5e-308, 'x'], c: { d: 'ü' } },
      Array.from({ length: 200 }, (_, i) => ({ key: `k${i}`, value: i })),
      [],
      {},
      -1.2345678901234567e-308,
    ];
    for (const value of values) {
      const exact = bytes(value);
      for (const limit of [exact - 1, exact, exact + 1, exact * 6 + 10]) expect([value, limit, fitsJsonBytes(value, limit)]).toEqual([value, limit, exact <= limit]);
    }
  });

  it('leaves out what JSON leaves out (undefined members) without counting them against a tight limit wrongly', () => {
    const value = { kept: 'x', gone: undefined };
    expect(fitsJsonBytes(value, bytes(value))).toBe(true);
    expect(fitsJsonBytes(value, bytes(value) - 1)).toBe(false);
  });
});
