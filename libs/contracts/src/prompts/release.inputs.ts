import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Length, Matches, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { IsObjectOf, KeepJson, OptionalNotNull } from '../validators';
import { GATE_THRESHOLDS_MAX, PROMPT_RELEASE_NAME_PATTERN, RENDER_VARIABLES_MAX } from './prompt-rules';

const isMean = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
const isScalar = (value: unknown) => (typeof value === 'string' && value.length <= 100_000) || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** What a release's target version must have passed: a completed run of this benchmark, over its whole dataset, meeting every threshold. */
export class ReleaseGateInput {
  @ApiProperty({ example: 'bm_01jh8z6v9q3m2r7x5c4b1n0k8d', description: 'A benchmark of this project' })
  @IsString()
  @Length(1, 40)
  benchmarkId: string;

  @ApiProperty({
    type: 'object',
    description: 'The least mean (0..1) each named scorer of the benchmark must reach',
    additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
    minProperties: 1,
    maxProperties: GATE_THRESHOLDS_MAX,
    example: { exact_match: 0.8 },
  })
  @KeepJson()
  @IsObjectOf({ valueOk: isMean, describe: 'a number from 0 to 1', maxKeys: GATE_THRESHOLDS_MAX, minKeys: 1 })
  thresholds: Record<string, number>;

  @ApiPropertyOptional({
    minimum: 1,
    example: 3,
    description: "Only runs over every item of the benchmark's dataset at this version count (default: the version the dataset has when the gate is set)",
  })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(999_999_999)
  datasetVersion?: number;
}

/** PUT …/releases/{name}: point the release at a version; `gate` sets (or, null, removes) its gate, absent keeps it. */
export class MoveReleaseInput {
  @ApiProperty({ minimum: 1, example: 2 })
  @IsInt()
  @Min(1)
  @Max(999_999_999)
  version: number;

  @ApiPropertyOptional({ type: ReleaseGateInput, nullable: true, description: 'Setting or removing a gate needs an admin key' })
  @ValidateIf((_, value) => value !== undefined && value !== null)
  @ValidateNested()
  @Type(() => ReleaseGateInput)
  gate?: ReleaseGateInput | null;
}

/** POST …/render: the values to fill, and which version (default: the newest). */
export class RenderPromptInput {
  @ApiProperty({
    type: 'object',
    description: 'A value for each {{placeholder}}: strings, numbers or booleans; keys the content does not name are ignored',
    additionalProperties: { type: ['string', 'number', 'boolean'] } as never,
    maxProperties: RENDER_VARIABLES_MAX,
    example: { subject: 'a lighthouse' },
  })
  @KeepJson()
  @IsObjectOf({ valueOk: isScalar, describe: 'a string, number or boolean', maxKeys: RENDER_VARIABLES_MAX })
  variables: Record<string, string | number | boolean>;

  @ApiPropertyOptional({ minimum: 1 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(999_999_999)
  version?: number;

  @ApiPropertyOptional({ pattern: PROMPT_RELEASE_NAME_PATTERN.source, example: 'production' })
  @OptionalNotNull()
  @IsString()
  @Matches(PROMPT_RELEASE_NAME_PATTERN, { message: 'must be a release name: 1..50 of a-z, 0-9, "_", "." and "-"' })
  release?: string;
}
