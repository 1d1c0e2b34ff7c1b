import { ApiProperty } from '@nestjs/swagger';

/** A secret as the API shows it: never its value. */
export class SecretView {
  @ApiProperty({ example: 'sec_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty({ example: 'OPENAI_API_KEY' }) name: string;
  @ApiProperty({ type: [String], example: ['api.openai.com'] }) allowedHosts: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export const SECRET_ACTIONS = ['created', 'rotated', 'deleted'] as const;
export type SecretAction = (typeof SECRET_ACTIONS)[number];

class SecretActor {
  @ApiProperty({ enum: ['api_key'] }) type: 'api_key';
  @ApiProperty({ example: 'key_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
}

/** One audited change of a secret: who, when, what; never the value. */
export class SecretActivityView {
  @ApiProperty({ example: 'act_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() secretId: string;
  @ApiProperty() secretName: string;
  @ApiProperty({ enum: SECRET_ACTIONS }) action: SecretAction;
  @ApiProperty({ type: SecretActor }) actor: SecretActor;
  @ApiProperty({ type: [String], description: 'allowedHosts after the change' }) allowedHosts: string[];
  @ApiProperty({ format: 'date-time' }) at: string;
}
