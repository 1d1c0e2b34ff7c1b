import { ApiAnyJson } from '../openapi/any-json';
import { ApiProperty } from '@nestjs/swagger';

export class DatasetView {
  @ApiProperty({ example: 'ds_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() projectId: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() itemCount: number;
  @ApiProperty({ description: 'Starts at 1; every append of items adds 1' }) version: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class DatasetItemView {
  @ApiProperty({ example: 'dsi_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() datasetId: string;
  @ApiProperty({ description: '0-based position in the dataset, in the order items were added' }) index: number;
  @ApiAnyJson() input: unknown;
  @ApiAnyJson() expected: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class DatasetItemsAddedView {
  @ApiProperty() added: number;
  @ApiProperty() itemCount: number;
  @ApiProperty() version: number;
}

export class DeletedView {
  @ApiProperty() id: string;
  @ApiProperty({ enum: [true] }) deleted: true;
}
