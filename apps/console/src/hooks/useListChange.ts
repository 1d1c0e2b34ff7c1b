import { useState } from 'react';

/**
 * A change to a listed resource (create, revoke, rotate, delete): the last error cleared,
 * the change made, then the list read again; a refusal is kept as `error` for ErrorNotice.
 */
export function useListChange(list: { reload(): void }): { error: unknown; change(action: () => Promise<unknown>): Promise<void> } {
  const [error, setError] = useState<unknown>(null);
  async function change(action: () => Promise<unknown>): Promise<void> {
    setError(null);
    try {
      await action();
      list.reload();
    } catch (e) {
      setError(e);
    }
  }
  return { error, change };
}
