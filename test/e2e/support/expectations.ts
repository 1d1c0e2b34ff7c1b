import { ApiResponse } from '@cinetrace/testing';
import { expect } from '@jest/globals';
import { Problem } from './api-types';

/** ISO-8601 UTC with milliseconds, as every time in the API is written. */
export const ISO_MILLIS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A project key as API.md defines it: 3..48 of [a-z0-9-], a letter first, no trailing '-'. */
export const PROJECT_KEY = /^[a-z][a-z0-9-]{1,46}[a-z0-9]$/;

/**
 * The answer is an RFC 9457 problem with this status and code, with every field API.md
 * names; `paths`, when given, must each be named in `errors`.
 */
export function expectProblem(response: ApiResponse, status: number, code: string, paths: string[] = []): asserts response is ApiResponse<Problem> {
  const body = response.body as Problem; // what it claims to be, the lines below check
  // Status and code together first: on failure the message shows what came back instead.
  expect({ status: response.status, code: body?.code }).toEqual({ status, code });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
  expect(response.body).toEqual(
    expect.objectContaining({
      type: expect.any(String),
      title: expect.any(String),
      status,
      code,
      detail: expect.any(String),
      requestId: expect.any(String),
    }),
  );
  expect(body.title).not.toBe('');
  expect(body.requestId).toBe(response.headers.get('x-request-id'));
  if (paths.length) {
    expect(body.errors).toEqual(expect.arrayContaining(paths.map((path) => expect.objectContaining({ path, message: expect.any(String) }))));
  }
}

/** A validation failure whose `errors` is non-empty (its paths are not pinned down). */
export function expectValidationFailure(response: ApiResponse): asserts response is ApiResponse<Problem> {
  expectProblem(response, 400, 'validation_failed');
  expect(Array.isArray(response.body.errors) && response.body.errors.length > 0).toBe(true);
}
