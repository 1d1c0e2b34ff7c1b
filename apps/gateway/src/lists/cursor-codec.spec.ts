import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { CursorCodec } from './cursor-codec';

describe('CursorCodec', () => {
  const codec = new CursorCodec(randomBytes(32));

  it('round-trips a keyset position within its scope', () => {
    const cursor = codec.encode('projects|org_1', ['2026-11-22T04:00:00.000Z', 'tr_9']);
    expect(codec.decode('projects|org_1', cursor)).toEqual(['2026-11-22T04:00:00.000Z', 'tr_9']);
  });

  it('refuses a cursor from another scope, a tampered one and garbage', () => {
    const cursor = codec.encode('projects|org_1', 'prj_1');
    expect(() => codec.decode('projects|org_2', cursor)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    const tampered = `${Buffer.from('"prj_0"').toString('base64url')}.${cursor.split('.')[1]}`;
    expect(() => codec.decode('projects|org_1', tampered)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    expect(() => codec.decode('projects|org_1', 'abc')).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });

  it('refuses a cursor signed with another secret', () => {
    const other = new CursorCodec(randomBytes(32)).encode('s', 'k');
    expect(() => codec.decode('s', other)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
  });
});
