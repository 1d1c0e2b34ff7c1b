import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';

/** 3..48 of a-z, 0-9 and `-`, starting with a letter and not ending with `-`. */
export const PROJECT_KEY_PATTERN = /^[a-z][a-z0-9-]{1,46}[a-z0-9]$/;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateProjectInput {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Video Gen / Prod' })
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiPropertyOptional({ maxLength: 2000, default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({
    pattern: PROJECT_KEY_PATTERN.source,
    description: 'Sent as X-Project-Key. Derived from the name when omitted.',
    example: 'video-gen-prod',
  })
  @IsOptional()
  @IsString()
  @Matches(PROJECT_KEY_PATTERN, {
    message: 'must be 3..48 lowercase letters, digits and "-", starting with a letter and not ending with "-"',
  })
  key?: string;
}
