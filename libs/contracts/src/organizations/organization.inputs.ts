import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateOrganizationInput {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Studio B' })
  @Transform(trim)
  @IsString()
  @Length(1, 200)
  name: string;
}
