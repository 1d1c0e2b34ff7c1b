import { ApiProperty } from '@nestjs/swagger';
import { API_KEY_SCOPES, type ApiKeyScope } from './api-key-scopes';

/** An API key as listed: never the key, never its hash. */
export class ApiKeyView {
  @ApiProperty({ example: 'key_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [String], enum: API_KEY_SCOPES }) scopes: ApiKeyScope[];
  @ApiProperty({ type: [String], nullable: true, description: 'null: every project of the organization' })
  projectIds: string[] | null;
  @ApiProperty({ example: 'ct_AbCd', description: 'The first characters of the key, to recognise it' }) prefix: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Updated at most once a minute' })
  lastUsedAt: string | null;
}

/** The answer to a create: the key itself, shown this once. */
export class CreatedApiKeyView {
  @ApiProperty({ example: 'key_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [String], enum: API_KEY_SCOPES }) scopes: ApiKeyScope[];
  @ApiProperty({ type: [String], nullable: true }) projectIds: string[] | null;
  @ApiProperty({ example: 'ct_AbCd' }) prefix: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ description: 'The key: shown only in this answer, never again' }) key: string;
}

/** What project-service answers to a create: everything but the key, which never crosses the bus. */
export type StoredApiKeyView = Omit<CreatedApiKeyView, 'key'>;
