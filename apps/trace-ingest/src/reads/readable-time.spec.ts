import { EARLIEST_TIME_MS, LATEST_TIME_MS } from '@cinetrace/traces';
import { durationMs, isoTime } from './readable-time';

describe('isoTime', () => {
  it('writes what toISOString writes, across days, at the ends of the range and of a day', () => {
    const times = [EARLIEST_TIME_MS, LATEST_TIME_MS, Date.UTC(2026, 10, 26, 23, 59, 59, 999), Date.UTC(2026, 10, 27), Date.UTC(2000, 1, 29, 12, 0, 0, 5)];
    // Deterministic spread over the whole range, and a run of nearby times (the cached day).
    for (let i = 0; i < 5000; i++) times.push(Math.floor((LATEST_TIME_MS / 5000) * i) + (i % 997));
    for (let i = 0; i < 5000; i++) times.push(Date.UTC(2026, 0, 1) + i * 7919);
    // Two days in turn, as a list item's start and creation times can be (both days cached).
    for (let i = 0; i < 100; i++) times.push(Date.UTC(2029, 0, 1) + i * 1001, Date.UTC(2026, 10, 27) + i * 1001);
    for (const ms of times) expect([ms, isoTime(ms)]).toEqual([ms, new Date(ms).toISOString()]);
  });

  it('reads a time outside 1970..9999 (stored before ingest refused them) as the nearest end', () => {
    expect(isoTime(8.7e15)).toBe(new Date(LATEST_TIME_MS).toISOString());
    expect(isoTime(-5)).toBe('1970-01-01T00:00:00.000Z');
    expect(isoTime(Number.NaN)).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('durationMs', () => {
  it('keeps the microseconds of the times, without the dust of their difference', () => {
    const start = Date.UTC(2030, 0, 1) + 0.1;
    expect(durationMs(start, start + 0.25)).toBe(0.25);
    expect(durationMs(Date.UTC(2030, 0, 1) + 0.123, Date.UTC(2030, 0, 1) + 1000.456)).toBe(1000.333);
    expect(durationMs(Date.UTC(2030, 0, 1), Date.UTC(2030, 0, 1) + 5)).toBe(5);
    expect(durationMs(start, null)).toBeNull();
  });

  it('writes a time with microseconds to its millisecond, truncated', () => {
    expect(isoTime(Date.UTC(2030, 0, 1, 10) + 123.999)).toBe('2030-01-01T10:00:00.123Z');
  });
});
