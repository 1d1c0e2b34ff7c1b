import { PROJECT_KEY_PATTERN } from '@cinetrace/contracts';
import { deriveProjectKey } from './project-key';

describe('deriveProjectKey', () => {
  it.each([
    ['Video Gen / Prod', 'video-gen-prod'],
    ['  Crème Brûlée  Renders ', 'creme-brulee-renders'],
    ['2026 launch', 'project-2026-launch'],
    ['!!', 'project'],
    ['ab', 'project-ab'],
    ['日本語', 'project'],
  ])('%j → %j', (name, key) => {
    expect(deriveProjectKey(name)).toBe(key);
  });

  it('always yields a valid key with room for a suffix', () => {
    const key = deriveProjectKey('x'.repeat(100) + ' tail');
    expect(key.length).toBeLessThanOrEqual(44);
    expect(PROJECT_KEY_PATTERN.test(`${key}-999`)).toBe(true);
  });
});
