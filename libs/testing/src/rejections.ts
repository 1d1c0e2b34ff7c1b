import { DomainError } from '@cinetrace/contracts';

/** What `promise` rejects with (`.catch((e) => e)` would type it `any`); throws when it resolves instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** The DomainError `promise` rejects with; throws when it resolves or rejects with anything else. */
export async function domainErrorOf(promise: Promise<unknown>): Promise<DomainError> {
  const error = await rejectionOf(promise);
  if (error instanceof DomainError) return error;
  throw new Error(`expected a DomainError, got ${String(error)}`);
}
