import { ApiProperty } from '@nestjs/swagger';

export class MediaAnnotationView {
  @ApiProperty({ example: 'man_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() mediaId: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) startMs: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) endMs: number;
  @ApiProperty() label: string;
  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 1 }) score: number | null;
  @ApiProperty({ type: 'string', nullable: true }) comment: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}
