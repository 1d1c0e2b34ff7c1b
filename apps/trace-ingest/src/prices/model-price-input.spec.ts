import { DomainError, MODEL_PRICE_LIMITS } from '@cinetrace/contracts';
import { checkModelPricesInput } from './model-price-input';

/** The field errors a body is refused with (400 validation_failed), by path. */
function refusal(raw: unknown): Record<string, string> {
  try {
    checkModelPricesInput(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('validation_failed');
    return Object.fromEntries((err as DomainError).errors!.map((e) => [e.path, e.message]));
  }
  throw new Error('the body was accepted');
}

describe('checkModelPricesInput', () => {
  it('takes names and regexes, trims names and lower-cases resolutions', () => {
    expect(
      checkModelPricesInput({
        entries: [
          { match: ' gpt-4o ', unit: 'input_token', usd: 0.0000025 },
          { match: { regex: '^veo-3' }, unit: 'video_second', usd: 0.4, resolution: '4K' },
          { match: 'sora-2-pro', unit: 'video_second', usd: 0.5, resolution: '1792x1024' },
          { match: 'free', unit: 'request', usd: 0 },
        ],
      }),
    ).toEqual([
      { match: 'gpt-4o', unit: 'input_token', usd: 0.0000025 },
      { match: { regex: '^veo-3' }, unit: 'video_second', usd: 0.4, resolution: '4k' },
      { match: 'sora-2-pro', unit: 'video_second', usd: 0.5, resolution: '1792x1024' },
      { match: 'free', unit: 'request', usd: 0 },
    ]);
    expect(checkModelPricesInput({ entries: [] })).toEqual([]);
  });

  it('names every offending field', () => {
    const errors = refusal({
      entries: [
        { match: '', unit: 'token', usd: -1 },
        { match: { regex: '(a' }, unit: 'input_token', usd: '1' },
        { match: { regex: 'x', flags: 'i' }, unit: 'input_token', usd: 1, resolution: '1080p' },
        { match: 'm', unit: 'video_second', usd: 1, resolution: 'hd', note: 'x' },
        'gpt-4o',
        { match: 42, unit: 'image', usd: Infinity },
      ],
      extra: true,
    });
    // Each offending field, and a part of what its message says.
    const named: Record<string, string> = {
      extra: 'not accepted',
      'entries[0].match': 'model name',
      'entries[0].unit': 'input_token, output_token, cached_input_token, video_second, image, request',
      'entries[0].usd': 'USD',
      'entries[1].match.regex': 'not a valid regular expression',
      'entries[1].usd': 'USD',
      'entries[2].match.flags': 'not a field',
      'entries[2].resolution': 'applies only to video_second and image prices',
      'entries[3].resolution': '720p, 1080p, 4k',
      'entries[3].note': 'not a field',
      'entries[4]': 'price object',
      'entries[5].match': 'model name',
      'entries[5].usd': 'USD',
    };
    expect(Object.keys(errors).sort()).toEqual(Object.keys(named).sort());
    for (const [path, part] of Object.entries(named)) expect(errors[path]).toContain(part);
  });

  it('refuses a pattern that cannot run in linear time, and one past the length bound', () => {
    expect(refusal({ entries: [{ match: { regex: '(a)\\1' }, unit: 'request', usd: 1 }] })['entries[0].match.regex']).toMatch(/not supported.*linear time/);
    expect(refusal({ entries: [{ match: { regex: '(?=a)' }, unit: 'request', usd: 1 }] })['entries[0].match.regex']).toMatch(/not supported/);
    const long = 'a'.repeat(MODEL_PRICE_LIMITS.regexLength + 1);
    expect(refusal({ entries: [{ match: { regex: long }, unit: 'request', usd: 1 }] })['entries[0].match.regex']).toContain(`1..${MODEL_PRICE_LIMITS.regexLength}`);
  });

  it('bounds the entries, and the entries matching by regex', () => {
    const many = Array.from({ length: MODEL_PRICE_LIMITS.entries + 1 }, (_, i) => ({ match: `m${i}`, unit: 'request', usd: 1 }));
    expect(refusal({ entries: many }).entries).toContain(`at most ${MODEL_PRICE_LIMITS.entries}`);
    const regexes = Array.from({ length: MODEL_PRICE_LIMITS.regexEntries + 1 }, (_, i) => ({ match: { regex: `^m${i}$` }, unit: 'request', usd: 1 }));
    expect(refusal({ entries: regexes }).entries).toContain(`at most ${MODEL_PRICE_LIMITS.regexEntries} entries matching by regex`);
  });

  it('refuses two entries pricing the same match, unit and resolution', () => {
    const entry = { match: 'gpt-4o', unit: 'input_token', usd: 1 };
    expect(refusal({ entries: [entry, { ...entry, unit: 'output_token' }, { ...entry, match: ' gpt-4o', usd: 2 }] })).toEqual({
      'entries[2]': 'prices the same match, unit and resolution as entries[0]',
    });
  });

  it('refuses a body that is not { entries: [ … ] }', () => {
    expect(refusal(null).body).toContain('JSON object');
    expect(refusal([]).body).toContain('JSON object');
    expect(Object.keys(refusal({}))).toEqual(['entries']);
    expect(refusal({}).entries).toContain('must be an array');
    expect(Object.keys(refusal(JSON.parse('{"entries":[],"__proto__":{}}')))).toEqual(['__proto__']);
  });
});
