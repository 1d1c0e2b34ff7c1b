import { ApiProperty } from '@nestjs/swagger';
import { CreatedApiKeyView } from '../api-keys/api-key.views';

/** A new organization with its first admin key, shown this once. */
export class CreatedOrganizationView {
  @ApiProperty({ example: 'org_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: CreatedApiKeyView }) apiKey: CreatedApiKeyView;
}

/** What project-service answers: everything but the key, which never crosses the bus (the gateway adds it). */
export type StoredOrganizationView = Omit<CreatedOrganizationView, 'apiKey'> & { apiKey: Omit<CreatedApiKeyView, 'key'> };
