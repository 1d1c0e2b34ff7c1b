import { ApiProperty } from '@nestjs/swagger';

export class ProjectView {
  @ApiProperty({ example: 'prj_01jh8z6v9q3m2r7x5c4b1n0k8d' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ example: 'video-gen-prod' }) key: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
