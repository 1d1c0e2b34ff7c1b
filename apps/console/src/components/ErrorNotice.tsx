import { ApiError } from '../api';

/** An API refusal in words a person can act on; the code and request id for a bug report. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 403) return `Your API key may not do this (${error.problem.code ?? 'forbidden'}): ${error.message}`;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="notice error" role="alert">
      {errorMessage(error)}
      {error instanceof ApiError && error.problem.requestId ? <span className="request-id"> (request {error.problem.requestId})</span> : null}
    </p>
  );
}
