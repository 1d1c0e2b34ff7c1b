import { ApiProperty } from '@nestjs/swagger';
import { PROMPT_TYPES, PromptType } from './prompt-rules';

export class PromptView {
  @ApiProperty({ example: 'prm_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() projectId: string;
  @ApiProperty({ example: 'intro-shot' }) identifier: string;
  @ApiProperty() name: string;
  @ApiProperty() content: string;
  @ApiProperty({ enum: PROMPT_TYPES }) type: PromptType;
  @ApiProperty({ type: [String] }) labels: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata: Record<string, unknown>;
  @ApiProperty({ type: [String], description: 'Distinct {{name}} placeholders of the content, in order of first use' })
  variables: string[];
  @ApiProperty({ example: 1 }) version: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) deletedAt: string | null;
}

export class PromptVersionView {
  @ApiProperty() promptId: string;
  @ApiProperty() version: number;
  @ApiProperty() name: string;
  @ApiProperty() content: string;
  @ApiProperty({ type: [String] }) labels: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata: Record<string, unknown>;
  @ApiProperty({ type: [String] }) variables: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export const PROMPT_ACTIONS = ['created', 'updated', 'deleted', 'released'] as const;
export type PromptAction = (typeof PROMPT_ACTIONS)[number];

export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** Who acted: today always an API key (its id, never its secret). */
export class ActorView {
  @ApiProperty({ enum: ['api_key'] }) type: 'api_key';
  @ApiProperty({ example: 'key_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
}

export class PromptActivityView {
  @ApiProperty({ example: 'act_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() promptId: string;
  @ApiProperty({ enum: PROMPT_ACTIONS }) action: PromptAction;
  @ApiProperty({ description: 'The version the prompt had after the action' }) version: number;
  @ApiProperty({ type: ActorView }) actor: ActorView;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({
    type: 'object',
    description: 'Each changed field, by name, with its value before and after',
    additionalProperties: { type: 'object', properties: { from: {}, to: {} }, required: ['from', 'to'] },
    example: { content: { from: 'old', to: 'new' } },
  })
  changes: Record<string, FieldChange>;
}

export class DeletedPromptView {
  @ApiProperty() id: string;
  @ApiProperty({ enum: [true] }) deleted: true;
  @ApiProperty({ format: 'date-time' }) deletedAt: string;
}
