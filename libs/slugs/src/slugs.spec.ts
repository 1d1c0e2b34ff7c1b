import { firstFreeSlug, slugify } from './slugs';

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
