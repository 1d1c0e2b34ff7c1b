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
      spans: [{ name: 'a', startTime: 1 }, { name: 'b', startTime: 2 }, { name: 'c', startTime: -1 }],
    });
    const errors = toFieldErrors(validateSync(trace));
    expect(errors.map((e) => e.path)).toEqual(['name', 'spans[2].startTime']);
    expect(errors[1].message).toBe('must not be less than 0');
  });
});
