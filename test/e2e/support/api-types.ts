import type { components, operations } from '@cinetrace/api-client';

/**
 * The answers' types, from the served OpenAPI document (openapi-typescript's, as
 * @cinetrace/api-client ships them): the suite reads a body as the contract describes it,
 * `api.get<Schema<'TraceView'>>(...)`. Naming a type claims nothing at run time; every answer is
 * checked against the document itself (libs/testing's assertConformsToOpenApi).
 */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** RFC 9457 problem details, as every error answers. */
export type Problem = Schema<'Problem'>;

/** The JSON body of an operation's answer with `status`, by its operationId: `Answer<'listTraces'>`. */
export type Answer<Op extends keyof operations, Status extends number = 200> = operations[Op]['responses'] extends infer Responses
  ? Status extends keyof Responses
    ? Responses[Status] extends { content: { 'application/json': infer Body } }
      ? Body
      : never
    : never
  : never;

/** A page of a list (API.md, "Lists"). */
export interface ListPage<T> {
  data: T[];
  nextCursor: string | null;
}

/** An item of a list operation's page: `Item<'listPrompts'>` is a prompt. */
export type Item<Op extends keyof operations> = Answer<Op> extends { data: Array<infer T> } ? T : never;
