import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { InProcessStreams } from './in-process.streams';
import { StreamRecord } from './stream.types';

const record = (key: string, value: unknown = { key }) => ({ key, value });

describe('InProcessStreams', () => {
  it('hands concurrent publishes to the consumer as one batch and answers each after it', async () => {
    const streams = new InProcessStreams();
    const batches: string[][] = [];
    let committed = false;
    streams.subscribe('t', async (records: StreamRecord[]) => {
      batches.push(records.map((r) => r.key));
      await new Promise((resolve) => setTimeout(resolve, 20));
      committed = true;
    });
    const answers = await Promise.all(['a', 'b', 'c'].map((key) => streams.publish('t', [record(key)]).then(() => committed)));
    expect(batches).toEqual([['a', 'b', 'c']]);
    expect(answers).toEqual([true, true, true]);
  });

  it('fails only the publish whose records the consumer cannot take, as 503 unavailable', async () => {
    const streams = new InProcessStreams();
    const stored: string[] = [];
    streams.subscribe('t', async (records: StreamRecord[]) => {
      if (records.some((r) => r.key === 'bad')) throw new Error('SQLITE_BUSY');
      stored.push(...records.map((r) => r.key));
    });
    const results = await Promise.allSettled(['a', 'bad', 'c'].map((key) => streams.publish('t', [record(key)])));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const reason = (results[1] as PromiseRejectedResult).reason as DomainError;
    expect(reason).toBeInstanceOf(DomainError);
    expect(reason.code).toBe(ErrorCode.Unavailable);
    expect(stored.sort()).toEqual(['a', 'c']);
  });

  it('hands the consumer the records as published, without copying them', async () => {
    const streams = new InProcessStreams();
    let seen: unknown;
    streams.subscribe('t', async (records: StreamRecord[]) => {
      seen = records[0].value;
    });
    const value = { at: 0, spans: [{ id: 's' }] };
    await streams.publish('t', [record('k', value)]);
    expect(seen).toBe(value);
  });

  it('counts the records published and not yet stored (the all-in-one ingest lag)', async () => {
    const streams = new InProcessStreams();
    let release!: () => void;
    const stored = new Promise<void>((resolve) => (release = resolve));
    streams.subscribe('t', () => stored);
    expect(streams.pendingRecords('t')).toBe(0);
    const published = Promise.all([streams.publish('t', [record('a'), record('b')]), streams.publish('t', [record('c')])]);
    expect(streams.pendingRecords('t')).toBe(3);
    release();
    await published;
    expect(streams.pendingRecords('t')).toBe(0);
    expect(streams.pendingRecords('nobody')).toBe(0);
  });

  it('refuses to publish to a stream nobody consumes', async () => {
    await expect(new InProcessStreams().publish('t', [record('k')])).rejects.toMatchObject({ code: ErrorCode.Unavailable });
  });
});
