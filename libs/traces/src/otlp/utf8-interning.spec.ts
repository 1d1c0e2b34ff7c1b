import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { utf8Text } from './utf8-interning';

/** `text` written at `offset` of a larger buffer, as strings lie inside a body. */
function inBody(bytes: Buffer, offset = 7): { buf: Buffer; start: number; end: number } {
  const buf = Buffer.concat([randomBytes(offset), bytes, randomBytes(5)]);
  return { buf, start: offset, end: offset + bytes.length };
}

const decode = (bytes: Buffer, offset?: number) => {
  const { buf, start, end } = inBody(bytes, offset);
  return utf8Text(buf, start, end);
};

describe('utf8Text', () => {
  it('reads what Node decodes, short or long, seen before or not', () => {
    const texts = ['', 'llm.model_name', 'application/json', 'é', '日本語のキー', '🎬 scene', 'x'.repeat(32), 'y'.repeat(33), 'a'.repeat(500)];
    for (let round = 0; round < 3; round++) {
      for (const text of texts) expect(decode(Buffer.from(text), round + 1)).toBe(text);
    }
  });

  it('answers invalid UTF-8 as Node does (U+FFFD), and never a string cached for other bytes', () => {
    const invalid = Buffer.from([0x61, 0xff, 0x62, 0xc3]);
    expect(decode(invalid)).toBe(invalid.toString('utf8'));
    // Every string of the same length that differs by one byte decodes as itself.
    const base = Buffer.from('gen_ai.request.model');
    for (let at = 0; at < base.length; at++) {
      const changed = Buffer.from(base);
      changed[at] ^= 0x01;
      expect([decode(base), decode(changed)]).toEqual([base.toString('utf8'), changed.toString('utf8')]);
    }
  });

  it('stays exact past the size of its table (thousands of distinct strings)', () => {
    const samples = Array.from({ length: 10_000 }, () => randomBytes(1 + Math.floor(Math.random() * 32)));
    for (const bytes of samples) expect(decode(bytes)).toBe(bytes.toString('utf8'));
    for (const bytes of samples.slice(0, 500)) expect(decode(bytes, 3)).toBe(bytes.toString('utf8'));
  });

  it('keeps no view of the body it read from', () => {
    const body = Buffer.from('xxservice.namexx');
    expect(utf8Text(body, 2, 14)).toBe('service.name');
    body.fill(0x21);
    expect(decode(Buffer.from('service.name'))).toBe('service.name');
  });
});
