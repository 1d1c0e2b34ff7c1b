import { ApiProperty } from '@nestjs/swagger';
import type { ProjectContext } from '../context';
import { ApiAnyJson } from '../openapi/any-json';

/**
 * A project's model price table (API.md, "Model prices"): what trace-ingest prices a span
 * with when its client sent no cost. The rules here are the ones trace-ingest validates a PUT
 * by and the gateway's OpenAPI document describes.
 */
export const MODEL_PRICE_UNITS = ['input_token', 'output_token', 'cached_input_token', 'video_second', 'image', 'request'] as const;
export type ModelPriceUnit = (typeof MODEL_PRICE_UNITS)[number];

/** Units a `resolution` may narrow: what is billed by the picture's size. */
export const RESOLUTION_UNITS: readonly ModelPriceUnit[] = ['video_second', 'image'];

/** Where a span's `costUsd` came from: its client, or the price table at ingest. */
export const COST_SOURCES = ['sent', 'computed'] as const;
export type CostSource = (typeof COST_SOURCES)[number];

/** Where a price of the table comes from: the project's PUT, or the defaults the service ships. */
export const MODEL_PRICE_SOURCES = ['project', 'default'] as const;
export type ModelPriceSource = (typeof MODEL_PRICE_SOURCES)[number];

export const MODEL_PRICE_LIMITS = {
  /** Entries a project may set. */
  entries: 500,
  /** Of those, entries matching by regex: a model first seen is tested against each. */
  regexEntries: 50,
  /** A regex's length: RE2 compiles in time and memory that grow with it. */
  regexLength: 200,
  /** A model name's length, as a span's `model` is bounded. */
  nameLength: 256,
  /** USD per unit. */
  usdMax: 1_000_000,
} as const;

/**
 * `1080p`, `720p`, `4k`, `8k` (the picture's shorter side), or `1792x1024` (both sides, in
 * either order). Case-insensitive, spelled out so that it reads the same as a JSON Schema pattern.
 */
export const RESOLUTION_PATTERN = /^(?:\d{2,5}[pP]|[48][kK]|\d{2,5}[xX]\d{2,5})$/;

/** A model name, or a regular expression tested on it (RE2 syntax: linear time). */
export type ModelMatch = string | { regex: string };

/** One price: USD per `unit` of the models `match` names, at `resolution` when set. */
export interface ModelPriceEntry {
  match: ModelMatch;
  unit: ModelPriceUnit;
  usd: number;
  resolution?: string;
}

/** `match` as JSON Schema: the gateway's document says it so (a union @nestjs/swagger cannot). */
export const MODEL_MATCH_SCHEMA = {
  oneOf: [
    { type: 'string', minLength: 1, maxLength: MODEL_PRICE_LIMITS.nameLength, description: 'A model name' },
    {
      type: 'object',
      additionalProperties: false,
      required: ['regex'],
      properties: { regex: { type: 'string', minLength: 1, maxLength: MODEL_PRICE_LIMITS.regexLength, description: 'RE2 syntax, case-insensitive' } },
    },
  ],
};

/** A price as the table answers it: the entry, and where it comes from. */
export class ModelPriceView {
  @ApiAnyJson({
    description:
      'A model name (matches that name, and the name with a provider prefix or a version suffix: `openai/gpt-4o`, `gpt-4o-2024-08-06`), or `{ regex }` tested on the whole model name',
    example: 'gpt-4o',
  })
  match: ModelMatch;
  @ApiProperty({ enum: MODEL_PRICE_UNITS }) unit: ModelPriceUnit;
  @ApiProperty({ minimum: 0, description: 'USD per unit', example: 0.0000025 }) usd: number;
  @ApiProperty({ type: String, nullable: true, description: 'Only spans of this resolution (`1080p`, `4k`, `1792x1024`); null: any', example: null })
  resolution: string | null;
  @ApiProperty({ enum: MODEL_PRICE_SOURCES, description: "`project`: set by this project's PUT, and wins; `default`: shipped with the service" })
  source: ModelPriceSource;
  @ApiProperty({ format: 'date-time', description: "When the price was set: the project's PUT, or the date the defaults were written" })
  asOf: string;
}

/** The table, or the project's part of it: every entry on one page. */
export class ModelPriceListView {
  @ApiProperty({ type: [ModelPriceView] }) data: ModelPriceView[];
  @ApiProperty({ type: 'null', description: 'Always null: every entry is on this page' }) nextCursor: null;
}

export interface ModelPricesGetRequest {
  ctx: ProjectContext;
}

/** `input` as the client sent it: trace-ingest validates it. */
export interface ModelPricesPutRequest {
  ctx: ProjectContext;
  input: unknown;
}
