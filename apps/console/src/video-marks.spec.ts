import type { Span } from './api-types';
import { findingsForSpan, findingsOf, findingsOfScores, formatMediaRange, formatMediaTime, placeRanges } from './video-marks';

const span = (fields: Partial<Span>): Span => ({ id: 'x', parentId: null, name: 'x', kind: 'span', output: null, attributes: null, ...fields }) as unknown as Span;

describe('video_qa findings', () => {
  it('reads the findings of a score, leaving out malformed ones', () => {
    const details = {
      durationMs: 3000,
      findings: [
        { check: 'black', startMs: 1000, endMs: 2000, value: 1 },
        { check: 'freeze', startMs: 2500, endMs: 2400, value: 0.1 },
        { check: 'flicker', startMs: -1, endMs: 5 },
        { startMs: 0, endMs: 5 },
        'nope',
      ],
    };
    expect(findingsOf('qa', details)).toEqual([{ scorer: 'qa', check: 'black', startMs: 1000, endMs: 2000, value: 1 }]);
    expect(findingsOf('qa', null)).toEqual([]);
    expect(findingsOf('qa', { findings: 'all of them' })).toEqual([]);
    expect(
      findingsOfScores([
        { scorer: 'exact', details: null },
        { scorer: 'qa', details },
      ]).map((f) => f.check),
    ).toEqual(['black']);
  });

  it("gives a task trace's target span the findings of its attempt's video_qa scorers, and no other span any", () => {
    const target = span({ id: 't.a1.target', parentId: 't.a1', kind: 'generation', attributes: { targetType: 'http' } });
    const qa = span({
      id: 't.a1.scorer.0',
      parentId: 't.a1',
      name: 'qa',
      kind: 'scorer',
      attributes: { scorerType: 'video_qa' },
      output: { scorer: 'qa', score: 0.6, details: { findings: [{ check: 'black', startMs: 1000, endMs: 2000, value: 1 }] } },
    });
    // Another attempt's scorer, and a scorer of another type with the same shape: not this span's.
    const earlier = span({ ...qa, id: 't.a0.scorer.0', parentId: 't.a0' });
    const other = span({ ...qa, id: 't.a1.scorer.1', attributes: { scorerType: 'llm_judge' } });
    const spans = [target, qa, earlier, other];
    expect(findingsForSpan(target, spans)).toEqual([{ scorer: 'qa', check: 'black', startMs: 1000, endMs: 2000, value: 1 }]);
    expect(findingsForSpan(span({ id: 'plain', parentId: 't.a1', output: qa.output }), spans)).toEqual([]);
  });
});

describe('the time bar', () => {
  it('places ranges by their share of the duration, overlapping ones on lanes of their own', () => {
    const placed = placeRanges(
      [
        { id: 'c', startMs: 5000, endMs: 6000 },
        { id: 'a', startMs: 0, endMs: 2000 },
        { id: 'b', startMs: 1000, endMs: 3000 },
      ],
      10_000,
    );
    expect(placed.map((p) => [p.item.id, p.leftPct, p.widthPct, p.lane])).toEqual([
      ['a', 0, 20, 0],
      ['b', 10, 20, 1],
      ['c', 50, 10, 0],
    ]);
  });

  it('keeps an instant visible and every mark within the bar, and places nothing without a duration', () => {
    const [instant, past] = placeRanges(
      [
        { startMs: 4000, endMs: 4000 },
        { startMs: 9000, endMs: 12_000 },
      ],
      10_000,
    );
    expect(instant.widthPct).toBeCloseTo(0.8);
    expect(past.leftPct + past.widthPct).toBeLessThanOrEqual(100);
    expect(placeRanges([{ startMs: 0, endMs: 1 }], 0)).toEqual([]);
  });

  it('writes times in a media as minutes, seconds and tenths', () => {
    expect(formatMediaTime(0)).toBe('0:00.0');
    expect(formatMediaTime(6000)).toBe('0:06.0');
    expect(formatMediaTime(83_450)).toBe('1:23.5');
    expect(formatMediaTime(59_960)).toBe('1:00.0');
    expect(formatMediaRange(1000, 2000)).toBe('0:01.0–0:02.0');
  });
});
