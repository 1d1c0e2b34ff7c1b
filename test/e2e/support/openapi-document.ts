/**
 * The served OpenAPI 3.1 document, as far as the suite reads it. What a test reads into is
 * typed as present (maps as index signatures, an operation's `requestBody` and its `content`,
 * a schema's `properties` and `items`): where it is absent, the test's assertion fails as it
 * would in JavaScript.
 */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [field: string]: unknown };
  /** Each path's operations by method (beside them, a path item may hold other fields). */
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes: Record<string, SecurityScheme>;
    [field: string]: unknown;
  };
}

/** The JSON Schema keywords the suite reads (OpenAPI 3.1's dialect). */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  properties: Record<string, Schema>;
  required?: string[];
  items: Schema;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  readOnly?: boolean;
  writeOnly?: boolean;
  [keyword: string]: unknown;
}

export interface Operation {
  operationId: string;
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header' | 'cookie'; schema?: Schema; [field: string]: unknown }>;
  requestBody: Content;
  responses: Record<string, Content>;
  /** Each requirement names its security schemes (the project key's is `projectKey`). */
  security?: Array<Record<string, string[]>>;
  [field: string]: unknown;
}

/** A request body or an answer: its media types. */
export interface Content {
  description?: string;
  content: Record<string, { schema: Schema; example?: unknown; examples?: Record<string, unknown> }>;
  [field: string]: unknown;
}

export interface SecurityScheme {
  type: string;
  scheme?: string;
  bearerFormat?: string;
  in?: string;
  name?: string;
  [field: string]: unknown;
}
