/** The longest `Prefer: wait` honoured: after that the answer is 202. */
export const MAX_WAIT_MS = 10_000;

/**
 * Reads `Prefer` (RFC 7240) for the `wait` preference: undefined when absent, else how
 * long to wait in ms (`wait` alone, or `wait=<seconds>`, capped at MAX_WAIT_MS).
 */
export function preferredWaitMs(header: string | string[] | undefined): number | undefined {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  for (const preference of values.flatMap((v) => v.split(','))) {
    const [token] = preference.split(';');
    const [name, value] = token.split('=').map((part) => part.trim().replace(/^"|"$/g, ''));
    if (name.toLowerCase() !== 'wait') continue;
    const seconds = value === undefined ? NaN : Number(value);
    return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_WAIT_MS) : MAX_WAIT_MS;
  }
  return undefined;
}
