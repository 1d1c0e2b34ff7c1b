import { splitMicros, toEpochMs, withMicros } from './times';

/** toEpochMs as it was: the regex and calendar check, then Date.parse for every time; and the fraction's microseconds. */
function byDateParse(value: string): number | undefined {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.exec(value);
  if (!parts) return undefined;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  const ms = Date.parse(value);
  const micros = (parts[7] ?? '').length > 4 ? Number(parts[7].slice(4, 7).padEnd(3, '0')) / 1000 : 0;
  return Number.isFinite(ms) && ms >= 0 && ms <= Date.UTC(9999, 11, 31, 23, 59, 59, 999) ? ms + micros : undefined;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

describe('toEpochMs', () => {
  it('reads every time as Date.parse does: dates, times of day, fractions and zones, edges and out-of-range parts included', () => {
    const dates = [
      '1970-01-01',
      '1969-12-31',
      '2000-02-29',
      '1900-02-29',
      '2024-02-29',
      '2023-02-29',
      '2026-04-31',
      '2026-12-31',
      '2026-00-10',
      '2026-13-01',
      '2026-01-00',
      '9999-12-31',
      '0000-01-01',
      '0070-01-01',
      '0075-06-15',
      '0099-12-31',
      '0100-03-01',
    ];
    const clocks = [
      '00:00',
      '23:59',
      '24:00',
      '25:00',
      '12:60',
      '00:00:00',
      '23:59:59',
      '23:59:60',
      '24:00:00',
      '12:34:56.7',
      '12:34:56.78',
      '12:34:56.789',
      '12:34:56.7891',
      '12:34:56.999999999',
      '00:00:00.000',
    ];
    const zones = ['Z', '+00:00', '-00:00', '+05:30', '-05:30', '+0530', '-0800', '+23:59', '-23:59', '+24:00', '-12:60', '+14:00'];
    let compared = 0;
    for (const date of dates) {
      for (const clock of clocks) {
        for (const zone of zones) {
          const value = `${date}T${clock}${zone}`;
          expect([value, toEpochMs(value)]).toEqual([value, byDateParse(value)]);
          compared++;
        }
      }
    }
    expect(compared).toBe(dates.length * clocks.length * zones.length);
  });

  it('agrees with Date.parse on random times across the whole range', () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 20_000; i++) {
      const fraction = random(3) === 0 ? '' : `.${pad(random(10 ** 6), 6).slice(0, 1 + random(6))}`;
      const zone = random(2) === 0 ? 'Z' : `${random(2) ? '+' : '-'}${pad(random(24))}${random(2) ? ':' : ''}${pad(random(60))}`;
      const value = `${pad(1970 + random(8030), 4)}-${pad(1 + random(12))}-${pad(1 + random(31))}T${pad(random(24))}:${pad(random(60))}:${pad(random(60))}${fraction}${zone}`;
      expect([value, toEpochMs(value)]).toEqual([value, byDateParse(value)]);
    }
  });

  it('reads times written as toISOString writes them as Date.parse does, one character off included', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const junk = ['a', ' ', '-', ':', '.', 'Z', 'T', '/', '٣'];
    for (let i = 0; i < 20_000; i++) {
      let value = `${pad(1900 + random(8200), 4)}-${pad(random(14))}-${pad(random(33))}T${pad(random(26))}:${pad(random(62))}:${pad(random(62))}.${pad(random(1000), 3)}Z`;
      if (random(4) === 0) {
        const at = random(value.length);
        value = `${value.slice(0, at)}${junk[random(junk.length)]}${value.slice(at + 1)}`;
      }
      expect([value, toEpochMs(value)]).toEqual([value, byDateParse(value)]);
    }
    expect(toEpochMs('2026-11-26T08:00:00.123Z')).toBe(Date.UTC(2026, 10, 26, 8, 0, 0, 123));
    expect(toEpochMs('9999-12-31T23:59:59.999Z')).toBe(Date.UTC(9999, 11, 31, 23, 59, 59, 999));
  });

  it('takes milliseconds within 1970..9999, a fraction rounded to the microsecond, and nothing else', () => {
    expect(toEpochMs(0)).toBe(0);
    expect(toEpochMs(1767225600123)).toBe(1767225600123);
    expect(toEpochMs(1.5)).toBe(1.5);
    expect(splitMicros(toEpochMs(1767225600123.4567)!)).toEqual({ ms: 1767225600123, micros: 457 });
    expect(toEpochMs(Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 0.5)).toBe(Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 0.5);
    for (const value of [-1, -0.5, Date.UTC(10000, 0, 1), Number.NaN, Infinity, '1767225600123', null, undefined, {}]) expect(toEpochMs(value)).toBeUndefined();
  });

  it('keeps the microseconds an ISO time writes, and drops the digits past them', () => {
    const ms = Date.UTC(2026, 11, 7, 10, 0, 0, 123);
    expect(splitMicros(toEpochMs('2026-12-07T10:00:00.123456Z')!)).toEqual({ ms, micros: 456 });
    expect(splitMicros(toEpochMs('2026-12-07T10:00:00.1234569Z')!)).toEqual({ ms, micros: 456 });
    expect(splitMicros(toEpochMs('2026-12-07T11:00:00.1234+01:00')!)).toEqual({ ms, micros: 400 });
    expect(toEpochMs('2026-12-07T10:00:00.123000Z')).toBe(ms);
  });

  it('splits a time into whole milliseconds and microseconds, and joins them back exactly', () => {
    for (const ms of [0, 1_765_101_600_123, Date.UTC(2109, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999)]) {
      expect(splitMicros(ms)).toEqual({ ms, micros: 0 });
    }
    for (let micros = 0; micros < 1000; micros++) {
      const time = withMicros(1_765_101_600_123, micros);
      expect(splitMicros(time)).toEqual({ ms: 1_765_101_600_123, micros });
      expect(splitMicros(withMicros(Date.UTC(2108, 11, 31), micros))).toEqual({ ms: Date.UTC(2108, 11, 31), micros });
    }
  });
});
