import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsByteLength, IsInt, IsNumber, IsString, Length, Max, Min } from 'class-validator';
import { OptionalNotNull } from '../validators';

export const ANNOTATION_LABEL_MAX = 100;
/** A comment's size in UTF-8 bytes (4 KiB). */
export const ANNOTATION_COMMENT_MAX_BYTES = 4096;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** `POST /api/v1/media/{id}/annotations`: a reviewer's mark on a time range. `endMs` must not pass the probed duration (checked by media-service). */
export class CreateMediaAnnotationInput {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Start of the range, in milliseconds from the start of the media', example: 1200 })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  startMs: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'End of the range (at least startMs, at most the probed duration)', example: 1800 })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  endMs: number;

  @ApiProperty({ minLength: 1, maxLength: ANNOTATION_LABEL_MAX, description: 'What the range shows; run summaries count labels', example: 'flicker' })
  @Transform(trim)
  @IsString()
  @Length(1, ANNOTATION_LABEL_MAX)
  label: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: "The reviewer's score of the range, 0..1", example: 0.25 })
  @OptionalNotNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  score?: number;

  @ApiPropertyOptional({ maxLength: ANNOTATION_COMMENT_MAX_BYTES, description: 'Free text, up to 4 KiB of UTF-8', example: 'The sky flickers as the camera pans' })
  @OptionalNotNull()
  @IsString()
  @IsByteLength(0, ANNOTATION_COMMENT_MAX_BYTES, { message: `must be at most ${ANNOTATION_COMMENT_MAX_BYTES} bytes of UTF-8` })
  comment?: string;
}
