import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsArray, IsInt, IsString, Length, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { KeepJson, IsJsonObject, OptionalNotNull } from '../validators';

export const BENCHMARK_NAME_MAX = 200;
export const BENCHMARK_DESCRIPTION_MAX = 2000;
export const RUNNER_DEFAULTS = { concurrency: 4, maxAttempts: 3, timeoutMs: 60_000 } as const;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** How a run executes its tasks; every field optional, defaults in RUNNER_DEFAULTS. */
export class RunnerInput {
  @ApiPropertyOptional({ minimum: 1, maximum: 64, default: RUNNER_DEFAULTS.concurrency })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(64)
  concurrency?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 10, default: RUNNER_DEFAULTS.maxAttempts })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(10)
  maxAttempts?: number;

  @ApiPropertyOptional({ minimum: 1000, maximum: 600_000, default: RUNNER_DEFAULTS.timeoutMs })
  @OptionalNotNull()
  @IsInt()
  @Min(1000)
  @Max(600_000)
  timeoutMs?: number;
}

export class CreateBenchmarkInput {
  @ApiProperty({ minLength: 1, maxLength: BENCHMARK_NAME_MAX, example: 'Camera moves, model v3' })
  @Transform(trim)
  @IsString()
  @Length(1, BENCHMARK_NAME_MAX)
  name: string;

  @ApiPropertyOptional({ maxLength: BENCHMARK_DESCRIPTION_MAX, default: '' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(BENCHMARK_DESCRIPTION_MAX)
  description?: string;

  @ApiProperty({ example: 'ds_01jh8z6v9q3m2r7x5c4b1n0k8d' })
  @IsString()
  @Length(1, 64)
  datasetId: string;

  /** Checked in depth by benchmark-service (each scorer's config by its type). */
  @ApiProperty({ type: 'array', items: { type: 'object' }, minItems: 1, maxItems: 20 })
  @KeepJson()
  @IsArray()
  scorers: unknown[];

  /** Checked in depth by benchmark-service (fields by type, outbound URL rules). */
  @ApiProperty({ type: 'object', additionalProperties: true, example: { type: 'dataset' } })
  @KeepJson()
  @IsJsonObject(64 * 1024)
  target: Record<string, unknown>;

  @ApiPropertyOptional({ type: RunnerInput })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => RunnerInput)
  runner?: RunnerInput;
}
