import { eventsJson } from './events-json';
import { isoTime } from './readable-time';

/** What the answer held before the plain events were rewritten in their text: parsed, times made ISO, serialized. */
function parsedAndSerialized(text: string): string {
  const events = JSON.parse(text) as Array<{ time: number | string }>;
  for (const event of events) event.time = isoTime(event.time as number);
  return JSON.stringify(events);
}

const T0 = Date.parse('2026-11-26T08:00:00.000Z');

describe('eventsJson', () => {
  const stored: Array<[string, unknown]> = [
    ['no events', []],
    ['one plain event', [{ name: 'queued', time: T0 + 1 }]],
    [
      'several plain events',
      [
        { name: 'queued', time: T0 },
        { name: 'started', time: T0 + 250 },
        { name: 'done', time: T0 + 86_400_123 },
      ],
    ],
    ['names JSON must escape', [{ name: 'a "quoted" \\ name\n\t\u0001 \u2028 é 🎬 \ud800', time: T0 }]],
    ['a name that looks like an event', [{ name: '{"name":"x","time":1}],[', time: T0 }]],
    [
      'an event with attributes among plain ones',
      [
        { name: 'queued', time: T0 },
        { name: 'retry', time: T0 + 200, attributes: { attempt: 2, time: 5 } },
      ],
    ],
    ['a time with a fraction', [{ name: 'queued', time: T0 + 0.5 }]],
    ['a time before 1970 (read as the range start)', [{ name: 'queued', time: -5 }]],
    ['a time past 9999 (read as the range end)', [{ name: 'queued', time: 8.7e15 }]],
    ['an empty name', [{ name: '', time: 0 }]],
  ];

  it.each(stored)('answers %s as parsing and serializing them did', (_, events) => {
    const text = JSON.stringify(events);
    expect(eventsJson(text)).toBe(parsedAndSerialized(text));
  });

  it('writes ISO times in place of the stored epoch milliseconds', () => {
    expect(JSON.parse(eventsJson(JSON.stringify([{ name: 'queued', time: T0 + 1 }])))).toEqual([{ name: 'queued', time: '2026-11-26T08:00:00.001Z' }]);
  });

  it('answers null for a span without events', () => {
    expect(eventsJson(null)).toBe('null');
  });

  it('takes a long run of awkward names in linear time', () => {
    const name = '\\"'.repeat(50_000);
    const text = `[{"name":"${name}","time":1},{"name":"${name}"`; // not JSON at its end: the plain pass must give up, not backtrack
    const started = process.hrtime.bigint();
    expect(() => eventsJson(text)).toThrow(SyntaxError);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1_000);
  });
});
