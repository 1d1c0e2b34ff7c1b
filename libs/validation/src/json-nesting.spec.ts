import { findExcessiveNesting } from './json-nesting';

const nested = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);

describe('findExcessiveNesting', () => {
  it('passes JSON nested up to the limit, the document itself being level 1', () => {
    expect(findExcessiveNesting('{"a":{"b":[1,{"c":2}]}}', 4)).toBeUndefined();
    expect(findExcessiveNesting(nested(64), 64)).toBeUndefined();
    expect(findExcessiveNesting('"just a string"', 0)).toBeUndefined();
  });

  it('names the path of the first container past the limit', () => {
    expect(findExcessiveNesting('{"a":{"b":[1,{"c":2}]}}', 3)).toBe('a.b[1]');
    expect(findExcessiveNesting('{"x":1,"items":[{"input":0},{"input":[[[]]]}]}', 4)).toBe('items[1].input[0]');
    expect(findExcessiveNesting(nested(65), 64)).toBe('[0]'.repeat(64));
    expect(findExcessiveNesting('[]', 0)).toBe('');
  });

  it('does not count brackets, quotes or commas inside strings', () => {
    const text = '{"k\\"[{,":"[[[{{{\\\\","b":["]]],\\"[["],"c\\\\":{"d":[]}}';
    expect(JSON.parse(text)).toBeTruthy();
    expect(findExcessiveNesting(text, 3)).toBeUndefined();
    expect(findExcessiveNesting(text, 2)).toBe('c\\.d');
  });

  it('decodes escaped keys and cuts long ones in the path', () => {
    expect(findExcessiveNesting('{"caf\\u00e9":[[]]}', 2)).toBe('café[0]');
    const long = 'k'.repeat(500);
    expect(findExcessiveNesting(`{"${long}":[]}`, 1)).toBe(`${'k'.repeat(64)}…`);
  });

  it('stops at the first container too deep, whatever follows', () => {
    const bomb = '['.repeat(2_500_000) + ']'.repeat(2_500_000);
    // A text as long that is read to its end, the yardstick: timing against it, not a fixed
    // bound, holds on a loaded machine (a 50 ms bound once failed at 58 ms under load).
    const shallow = `[${'0,'.repeat(2_499_999)}0]`;
    // Both flattened before the clock starts: the first charCodeAt of a concatenation copies it whole.
    bomb.charCodeAt(0);
    shallow.charCodeAt(0);
    const timed = (text: string) => {
      const started = process.hrtime.bigint();
      const path = findExcessiveNesting(text, 64);
      return { path, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    };
    const whole = timed(shallow);
    // The quickest of five: one scan can meet a collector's pause or a compile of its own
    // (5 ms once on a loaded CI machine, against the whole text's 42).
    const early = Array.from({ length: 5 }, () => timed(bomb)).reduce((a, b) => (b.ms < a.ms ? b : a));
    expect(whole.path).toBeUndefined();
    expect(early.path).toBe('[0]'.repeat(64));
    // JSON.parse takes about a second on this text; the scan stops at level 65.
    expect(early.ms).toBeLessThan(whole.ms / 10);
  });

  it('gives an answer, never an exception, for text that is not JSON', () => {
    expect(findExcessiveNesting('{"unterminated: [[[[', 2)).toBeUndefined();
    expect(findExcessiveNesting(']]]}}}[', 1)).toBeUndefined();
    expect(findExcessiveNesting('{"a":[[', 2)).toBe('a[0]');
  });
});
