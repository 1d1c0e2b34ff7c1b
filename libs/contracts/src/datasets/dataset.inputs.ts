import { ApiAnyJson, ApiAnyJsonOptional } from '../openapi/any-json';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { KeepJson, IsJsonObject, IsJsonValue, IsObjectItems, OptionalNotNull } from '../validators';

export const DATASET_NAME_MAX = 200;
export const DATASET_DESCRIPTION_MAX = 2000;
/** Items per request, on create and on append (API.md). */
export const DATASET_ITEMS_PER_REQUEST = 1000;
export const ITEM_VALUE_MAX_BYTES = 1024 * 1024;
export const ITEM_METADATA_MAX_BYTES = 64 * 1024;

/** What an item that is not an object is told (an array, a string, null). */
const ITEM_SHAPE = 'must be an object: { input, expected?, metadata? }';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class DatasetItemInput {
  @ApiAnyJson({ description: 'Any JSON: what the target receives for this item', example: { prompt: 'a fox at dawn' } })
  @KeepJson()
  @IsJsonValue(ITEM_VALUE_MAX_BYTES, { required: true })
  input: unknown;

  @ApiAnyJsonOptional({ description: 'Any JSON: what the scorers compare the output with' })
  @KeepJson()
  @IsJsonValue(ITEM_VALUE_MAX_BYTES)
  expected?: unknown;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalNotNull()
  @KeepJson()
  @IsJsonObject(ITEM_METADATA_MAX_BYTES)
  metadata?: Record<string, unknown>;
}

export class CreateDatasetInput {
  @ApiProperty({ minLength: 1, maxLength: DATASET_NAME_MAX, example: 'Camera moves v1' })
  @Transform(trim)
  @IsString()
  @Length(1, DATASET_NAME_MAX)
  name: string;

  @ApiPropertyOptional({ maxLength: DATASET_DESCRIPTION_MAX, default: '' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(DATASET_DESCRIPTION_MAX)
  description?: string;

  @ApiPropertyOptional({ type: [DatasetItemInput], maxItems: DATASET_ITEMS_PER_REQUEST })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(DATASET_ITEMS_PER_REQUEST)
  @IsObjectItems(ITEM_SHAPE)
  @ValidateNested({ each: true, message: ITEM_SHAPE })
  @Type(() => DatasetItemInput)
  items?: DatasetItemInput[];
}

export class AddDatasetItemsInput {
  @ApiProperty({ type: [DatasetItemInput], minItems: 1, maxItems: DATASET_ITEMS_PER_REQUEST })
  @IsArray()
  @ArrayMaxSize(DATASET_ITEMS_PER_REQUEST)
  @IsObjectItems(ITEM_SHAPE)
  @ValidateNested({ each: true, message: ITEM_SHAPE })
  @Type(() => DatasetItemInput)
  items: DatasetItemInput[];
}
