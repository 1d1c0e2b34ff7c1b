import { withCopies, withoutCopies } from './attribute-copies';

const text = (value: unknown) => ({ value, text: JSON.stringify(value) });
const prompt = 'a lone cyclist under neon rain, slow dolly, 35mm film grain, night';

describe('attribute copies', () => {
  it('takes out a string attribute equal to a string payload or to a payload JSON text, and puts both back in place', () => {
    const output = { videoUrl: 'https://cdn.example.test/v/1.mp4', frames: 192, seed: 7 };
    const attributes = { 'input.value': prompt, 'output.value': JSON.stringify(output), shard: 1 };
    const { attributes: kept, copies } = withoutCopies(attributes, text(prompt), text(output));
    expect(copies).toEqual({ 'input.value': 'input', 'output.value': 'output' });
    expect(kept).toEqual({ 'input.value': 0, 'output.value': 0, shard: 1 });
    expect(attributes['input.value']).toBe(prompt); // the span's own object is not changed
    const restored = withCopies(JSON.parse(JSON.stringify(kept)) as Record<string, unknown>, copies!, { input: JSON.stringify(prompt), output: JSON.stringify(output) });
    expect(Object.entries(restored)).toEqual(Object.entries(attributes));
  });

  it('keeps what only looks like a copy: other spacing, short values, values that are not strings', () => {
    const input = { prompt, steps: 30 };
    const spaced = JSON.stringify(input, null, 1);
    const attributes = { 'input.value': spaced, short: 'x', number: 12345 };
    expect(withoutCopies(attributes, text(input), text(null))).toEqual({ attributes, copies: null });
    expect(withoutCopies(attributes, { value: null, text: null }, { value: null, text: null }).copies).toBeNull();
  });
});
