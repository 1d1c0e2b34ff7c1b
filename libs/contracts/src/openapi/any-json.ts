import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';

/**
 * Marks a field that holds any JSON value (null included). @nestjs/swagger would call a
 * field typed `unknown` an object; the gateway's document refiner turns the mark into the
 * empty schema `{}` (see apps/gateway/src/openapi/any-json-fields.ts).
 */
export const ANY_JSON_MARK = 'x-any-json';

const marked = (options: ApiPropertyOptions) => ({ ...options, [ANY_JSON_MARK]: true }) as unknown as ApiPropertyOptions;

export const ApiAnyJson = (options: ApiPropertyOptions = {}) => ApiProperty(marked(options));
export const ApiAnyJsonOptional = (options: ApiPropertyOptions = {}) => ApiPropertyOptional(marked(options));
