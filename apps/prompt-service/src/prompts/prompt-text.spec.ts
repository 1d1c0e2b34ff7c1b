import { PROMPT_IDENTIFIER_PATTERN } from '@cinetrace/contracts';
import { RENDERED_CONTENT_MAX, deriveIdentifier, extractVariables, fillVariables } from './prompt-text';

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
    expect(extractVariables('{{subject}} walks to {{ place }} while {{subject}} waves at {{camera.angle}}')).toEqual(['subject', 'place', 'camera.angle']);
  });

  it('ignores what is not a placeholder', () => {
    expect(extractVariables('{{}} {{ 1abc }} {single} {{two words}} plain')).toEqual([]);
  });
});

describe('fillVariables', () => {
  it('fills strings, numbers and booleans, ignores extra keys and never re-scans a value', () => {
    expect(fillVariables('{{ a }} {{b}} {{c}} {{a}}', { a: '{{b}}', b: 2.5, c: false, extra: 'x' })).toEqual({ content: '{{b}} 2.5 false {{b}}', missing: [] });
  });

  it('names each placeholder left unfilled, once, in order of first use', () => {
    expect(fillVariables('{{x}} {{y}} {{x}}', {})).toEqual({ content: '{{x}} {{y}} {{x}}', missing: ['x', 'y'] });
  });

  it('does not take inherited keys as values', () => {
    expect(fillVariables('{{constructor}}', {}).missing).toEqual(['constructor']);
  });

  it('refuses, without building it, a render longer than RENDERED_CONTENT_MAX; one at the limit is filled', () => {
    const content = '{{a}} '.repeat(10_000);
    const value = 'x'.repeat(Math.floor(RENDERED_CONTENT_MAX / 10_000));
    expect(fillVariables(content, { a: `${value}x` })).toEqual({ content: '', missing: [], tooLong: true });
    const filled = fillVariables(content, { a: value.slice(0, -1) });
    expect(filled.tooLong).toBeUndefined();
    expect(filled.content.length).toBeLessThanOrEqual(RENDERED_CONTENT_MAX);
  });
});
