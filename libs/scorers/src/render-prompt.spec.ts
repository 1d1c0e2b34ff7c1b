import { renderPrompt } from './render-prompt';

describe('renderPrompt', () => {
  it('fills placeholders from the input, dot paths included', () => {
    expect(renderPrompt('A {{subject}} at {{ scene.time }}, {{scene.mood}}.', { subject: 'cat', scene: { time: 'dusk', mood: 'calm' } })).toBe('A cat at dusk, calm.');
  });

  it('writes values that are not strings as JSON', () => {
    expect(renderPrompt('{{n}} {{flag}} {{tags}} {{shot}} {{none}} {{tags.1}}', { n: 3, flag: false, tags: ['a', 'b'], shot: { fps: 24 }, none: null })).toBe(
      '3 false ["a","b"] {"fps":24} null b',
    );
  });

  it('leaves a placeholder the input cannot fill as written', () => {
    expect(renderPrompt('{{ missing }} and {{scene.nothing}} and {{a..b}}', { scene: {}, a: { '': { b: 1 } } })).toBe('{{ missing }} and {{scene.nothing}} and {{a..b}}');
    expect(renderPrompt('Hi {{name}}', undefined)).toBe('Hi {{name}}');
    expect(renderPrompt('{{constructor}} {{toString}}', {})).toBe('{{constructor}} {{toString}}');
  });

  it('evaluates nothing and does not expand placeholders inside values', () => {
    expect(renderPrompt('{{a}} {{ 1 + 1 }} {{b}}', { a: '{{b}}', b: 'x' })).toBe('{{b}} {{ 1 + 1 }} x');
  });

  it('takes a string input as {{input}}', () => {
    expect(renderPrompt('Describe: {{input}} ({{ other }})', 'a cat at dusk')).toBe('Describe: a cat at dusk ({{ other }})');
    expect(renderPrompt('Describe: {{input}}', { input: 'from the object' })).toBe('Describe: from the object');
  });

  it('replaces $ patterns literally', () => {
    expect(renderPrompt('{{price}}', { price: "$& $1 $'" })).toBe("$& $1 $'");
  });
});
