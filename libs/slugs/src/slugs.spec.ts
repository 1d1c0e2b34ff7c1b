import { DERIVED_SLUG_ATTEMPTS, firstFreeSlug, insertWithDerivedSlug, slugify } from './slugs';

describe('slugify', () => {
  it('folds accents and collapses separators', () => {
    expect(slugify('  Vidéo Gen / Prod!! ', 50)).toBe('video-gen-prod');
  });

  it('cuts to the length without leaving a trailing hyphen', () => {
    expect(slugify('abc def', 4)).toBe('abc');
  });

  it('returns an empty slug for a name without letters or digits', () => {
    expect(slugify('¿¡ / !?', 50)).toBe('');
  });
});

describe('firstFreeSlug', () => {
  it('takes the base while it is free, then the lowest free suffix from 2', () => {
    expect(firstFreeSlug('intro', new Set())).toBe('intro');
    expect(firstFreeSlug('intro', new Set(['intro', 'intro-2', 'intro-4']))).toBe('intro-3');
  });
});

describe('insertWithDerivedSlug', () => {
  class Collision extends Error {}
  const isCollision = (err: unknown) => err instanceof Collision;

  it('stores under the first free slug', async () => {
    const insert = jest.fn((slug: string) => Promise.resolve(slug));
    await expect(insertWithDerivedSlug('intro', { taken: () => Promise.resolve(new Set(['intro'])), insert, isCollision })).resolves.toBe('intro-2');
    expect(insert).toHaveBeenCalledTimes(1);
  });

  it('reads the taken slugs again and tries the next one when a concurrent create took it first', async () => {
    const stored = new Set(['intro']);
    const insert = jest.fn((slug: string) => {
      if (slug === 'intro-2' && !stored.has(slug)) {
        stored.add(slug); // the concurrent create wins the race
        return Promise.reject(new Collision());
      }
      return Promise.resolve(slug);
    });
    await expect(insertWithDerivedSlug('intro', { taken: () => Promise.resolve(new Set(stored)), insert, isCollision })).resolves.toBe('intro-3');
    expect(insert.mock.calls.map(([slug]) => slug)).toEqual(['intro-2', 'intro-3']);
  });

  it('throws other errors at once, and the collision of the last attempt', async () => {
    const failure = new Error('disk full');
    const failing = jest.fn(() => Promise.reject(failure));
    await expect(insertWithDerivedSlug('intro', { taken: () => Promise.resolve(new Set<string>()), insert: failing, isCollision })).rejects.toBe(failure);
    expect(failing).toHaveBeenCalledTimes(1);

    const colliding = jest.fn(() => Promise.reject(new Collision()));
    await expect(insertWithDerivedSlug('intro', { taken: () => Promise.resolve(new Set<string>()), insert: colliding, isCollision })).rejects.toBeInstanceOf(Collision);
    expect(colliding).toHaveBeenCalledTimes(DERIVED_SLUG_ATTEMPTS);
    await expect(insertWithDerivedSlug('intro', { taken: () => Promise.resolve(new Set<string>()), insert: colliding, isCollision, attempts: 2 })).rejects.toBeInstanceOf(
      Collision,
    );
    expect(colliding).toHaveBeenCalledTimes(DERIVED_SLUG_ATTEMPTS + 2);
  });
});
