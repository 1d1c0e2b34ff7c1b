import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { IsJsonObject, KeepJson, OptionalNotNull } from '../validators';
import { RunnerInput } from './benchmark.inputs';

export const ROW_SUBSET_MAX_IDS = 10_000;

/** Which dataset items a run takes: a window by position, or items named by id. */
export class RowSubsetInput {
  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  offset?: number;

  @ApiPropertyOptional({ minimum: 1 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  limit?: number;

  @ApiPropertyOptional({ type: 'array', items: { type: 'string', minLength: 1, maxLength: 64 }, minItems: 1, maxItems: ROW_SUBSET_MAX_IDS })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ROW_SUBSET_MAX_IDS)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  itemIds?: string[];
}

/** Free-form labels of a run, stored on it (`flags` for e.g. the model variant under test). */
export class ExperimentInput {
  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalNotNull()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalNotNull()
  @KeepJson()
  @IsJsonObject(16 * 1024)
  flags?: Record<string, unknown>;
}

export class StartRunInput {
  @ApiPropertyOptional({ type: RowSubsetInput })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => RowSubsetInput)
  rowSubset?: RowSubsetInput;

  @ApiPropertyOptional({ type: ExperimentInput })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => ExperimentInput)
  experiment?: ExperimentInput;

  @ApiPropertyOptional({ type: RunnerInput, description: "Overrides the benchmark's runner for this run" })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => RunnerInput)
  runner?: RunnerInput;
}
