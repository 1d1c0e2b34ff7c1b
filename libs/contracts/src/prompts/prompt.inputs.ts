import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, Length, Matches } from 'class-validator';
import { KeepJson, IsJsonObject, IsStringItems, OptionalNotNull } from '../validators';
import {
  PROMPT_CONTENT_MAX,
  PROMPT_IDENTIFIER_PATTERN,
  PROMPT_LABEL_PATTERN,
  PROMPT_LABELS_MAX,
  PROMPT_METADATA_MAX_BYTES,
  PROMPT_NAME_MAX,
  PROMPT_TYPES,
  PromptType,
} from './prompt-rules';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

const LABELS_RULE = {
  pattern: PROMPT_LABEL_PATTERN,
  describe: '1..50 of a-z, 0-9, "_", "." and "-"',
  maxItems: PROMPT_LABELS_MAX,
};
/** The labels as the document says them: the rule IsStringItems checks (distinct items, each matching the pattern). */
const LABELS_SCHEMA = {
  type: 'array',
  items: { type: 'string', pattern: PROMPT_LABEL_PATTERN.source },
  maxItems: PROMPT_LABELS_MAX,
  uniqueItems: true,
} as const;

/** Fields shared by create and update; on update each is optional. */
class PromptFields {
  @ApiProperty({ minLength: 1, maxLength: PROMPT_NAME_MAX, example: 'Intro Shot' })
  @Transform(trim)
  @IsString()
  @Length(1, PROMPT_NAME_MAX)
  name: string;

  @ApiProperty({ minLength: 1, maxLength: PROMPT_CONTENT_MAX, example: 'A slow dolly shot of {{subject}} at dawn' })
  @IsString()
  @Length(1, PROMPT_CONTENT_MAX)
  content: string;

  @ApiPropertyOptional({ ...LABELS_SCHEMA, example: ['production'] })
  @OptionalNotNull()
  @IsStringItems(LABELS_RULE)
  labels?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalNotNull()
  @KeepJson()
  @IsJsonObject(PROMPT_METADATA_MAX_BYTES)
  metadata?: Record<string, unknown>;
}

export class CreatePromptInput extends PromptFields {
  @ApiProperty({ enum: PROMPT_TYPES })
  @IsIn(PROMPT_TYPES, { message: `must be one of: ${PROMPT_TYPES.join(', ')}` })
  type: PromptType;

  @ApiPropertyOptional({
    pattern: PROMPT_IDENTIFIER_PATTERN.source,
    description: 'Stable slug, unique among the live prompts of the project. Derived from the name when omitted.',
    example: 'intro-shot',
  })
  @OptionalNotNull()
  @IsString()
  @Matches(PROMPT_IDENTIFIER_PATTERN, {
    message: 'must be 1..100 of a-z, 0-9, "-", "_" and ".", starting and ending with a letter or digit',
  })
  identifier?: string;
}

/** PUT: only these fields, each optional; `identifier`, `type`, `id` and anything else is refused. */
export class UpdatePromptInput {
  @ApiPropertyOptional({ minLength: 1, maxLength: PROMPT_NAME_MAX })
  @OptionalNotNull()
  @Transform(trim)
  @IsString()
  @Length(1, PROMPT_NAME_MAX)
  name?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: PROMPT_CONTENT_MAX })
  @OptionalNotNull()
  @IsString()
  @Length(1, PROMPT_CONTENT_MAX)
  content?: string;

  @ApiPropertyOptional(LABELS_SCHEMA)
  @OptionalNotNull()
  @IsStringItems(LABELS_RULE)
  labels?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalNotNull()
  @KeepJson()
  @IsJsonObject(PROMPT_METADATA_MAX_BYTES)
  metadata?: Record<string, unknown>;
}
