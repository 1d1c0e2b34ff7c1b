import { PROMPT_IDENTIFIER_PATTERN } from '@cinetrace/contracts';
import { deriveIdentifier, extractVariables } from './prompt-text';

describe('deriveIdentifier', () => {
  it.each([
    ['Intro Shot', 'intro-shot'],
    ['  Crème Brûlée / Close-up ', 'creme-brulee-close-up'],
    ['2026 Launch', '2026-launch'],
    ['!!!', 'prompt'],
  ])('%j → %j', (name, identifier) => {
    expect(deriveIdentifier(name)).toBe(identifier);
  });

  it('keeps room for a collision suffix within the 100-character limit', () => {
    const identifier = deriveIdentifier(`${'word '.repeat(40)}end`);
    expect(PROMPT_IDENTIFIER_PATTERN.test(`${identifier}-9999`)).toBe(true);
  });
});

describe('extractVariables', () => {
  it('lists distinct placeholders in order of first use, spaces inside braces allowed', () => {
    expect(extractVariables('{{subject}} walks to {{ place }} while {{subject}} waves at {{camera.angle}}')).toEqual([
      'subject',
      'place',
      'camera.angle',
    ]);
  });

  it('ignores what is not a placeholder', () => {
    expect(extractVariables('{{}} {{ 1abc }} {single} {{two words}} plain')).toEqual([]);
  });
});
