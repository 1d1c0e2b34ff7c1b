import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMinSize, IsString, Length } from 'class-validator';
import { IsStringItems, OptionalNotNull } from '../validators';
import { API_KEY_SCOPES } from './api-key-scopes';

export const API_KEY_NAME_MAX = 200;
/** Projects one key may be restricted to; more is a sign the key should not be restricted. */
export const API_KEY_PROJECTS_MAX = 100;

/** What a project id item may be (the document says it as the validator checks it). */
const PROJECT_ID_ITEM = /^[A-Za-z0-9_]{1,64}$/;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateApiKeyInput {
  @ApiProperty({ minLength: 1, maxLength: API_KEY_NAME_MAX, example: 'CI ingest' })
  @Transform(trim)
  @IsString()
  @Length(1, API_KEY_NAME_MAX)
  name: string;

  @ApiProperty({ type: [String], enum: API_KEY_SCOPES, minItems: 1, uniqueItems: true, example: ['ingest'] })
  @ArrayMinSize(1, { message: 'must name at least one scope' })
  @IsStringItems({ pattern: new RegExp(`^(${API_KEY_SCOPES.join('|')})$`), describe: `one of ${API_KEY_SCOPES.join(', ')}`, maxItems: API_KEY_SCOPES.length })
  scopes: string[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', pattern: PROJECT_ID_ITEM.source },
    minItems: 1,
    maxItems: API_KEY_PROJECTS_MAX,
    uniqueItems: true,
    description: 'Restricts the key to these projects of the organization; omitted or null: every project',
    example: ['prj_01jh8z6v9q3m2r7x5c4b1n0k8d'],
  })
  @OptionalNotNull()
  @ArrayMinSize(1, { message: 'must name at least one project (omit it for every project)' })
  @IsStringItems({ pattern: PROJECT_ID_ITEM, describe: 'a project id', maxItems: API_KEY_PROJECTS_MAX })
  projectIds?: string[];
}
