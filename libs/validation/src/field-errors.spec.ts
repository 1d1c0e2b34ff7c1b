import { IsStringItems } from '@cinetrace/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsString, Min, ValidateNested, validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { toFieldErrors } from './field-errors';

class Span {
  @IsString() name: string;
  @IsInt() @Min(0) startTime: number;
}

class Trace {
  @IsString() name: string;
  @ValidateNested({ each: true }) @Type(() => Span) spans: Span[];
}

describe('toFieldErrors', () => {
  it('names nested array fields by the path a client wrote', () => {
    const trace = plainToInstance(Trace, {
      name: 7,
      spans: [
        { name: 'a', startTime: 1 },
        { name: 'b', startTime: 2 },
        { name: 'c', startTime: -1 },
      ],
    });
    const errors = toFieldErrors(validateSync(trace));
    expect(errors.map((e) => e.path)).toEqual(['name', 'spans[2].startTime']);
    expect(errors[1].message).toBe('must not be less than 0');
  });
});

describe('toFieldErrors with item-wise messages', () => {
  class Labels {
    @IsStringItems({ pattern: /^[a-z]+$/, describe: 'lowercase letters', maxItems: 3 }) labels: unknown;
  }

  it('names each offending item by its index', () => {
    const errors = toFieldErrors(validateSync(plainToInstance(Labels, { labels: ['ok', 'Bad', 'ok'] })));
    expect(errors).toEqual([
      { path: 'labels[1]', message: 'must be lowercase letters' },
      { path: 'labels[2]', message: "repeats 'ok': items must be distinct" },
    ]);
  });

  it('keeps whole-array problems on the field itself', () => {
    const errors = toFieldErrors(validateSync(plainToInstance(Labels, { labels: ['a', 'b', 'c', 'd'] })));
    expect(errors).toEqual([{ path: 'labels', message: 'must have at most 3 items' }]);
  });
});
