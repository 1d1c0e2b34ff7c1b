import { newId, pooledRandom } from './ids';

describe('newId', () => {
  it('makes prefixed ids that sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 500 }, () => newId('prj'));
    expect(ids[0]).toMatch(/^prj_[0-9a-z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('pooledRandom', () => {
  it('gives values in [0, 1) that are spread out and do not repeat across pool refills', () => {
    const values = Array.from({ length: 5000 }, () => pooledRandom());
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(4990);
    // Each tenth of [0, 1) holds about a tenth of the values.
    const tenths = Array.from({ length: 10 }, (_, t) => values.filter((v) => Math.floor(v * 10) === t).length);
    expect(Math.min(...tenths)).toBeGreaterThan(400);
  });

  it('gives every id a random part of its own', () => {
    const randomPart = (id: string) => id.slice(-16);
    const parts = new Set(Array.from({ length: 200 }, () => randomPart(newId('x'))));
    expect(parts.size).toBe(200);
  });
});
