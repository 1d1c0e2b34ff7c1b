// The API answers 503 (a service busy or restarting, a storyboard still computing) and 429
// with Retry-After: a read the console makes is asked again after that wait, so a blip shows
// as a short delay, not as an error a person has to clear by reloading the page.

/** How many times a read is asked in all, by default. */
export const READ_ASKS = 4;
/** The longest the console waits between two asks, whatever Retry-After says. */
export const MAX_RETRY_WAIT_MS = 10_000;

const RETRIED_STATUSES = new Set([429, 503]);

/** Retry-After in ms (seconds in the header; 1 s when absent or a date), at most MAX_RETRY_WAIT_MS. */
export function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get('Retry-After'));
  return Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000, MAX_RETRY_WAIT_MS);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function pause(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * A fetch that asks a GET again, up to `asks` times in all, while the answer is 503 or 429,
 * waiting its Retry-After in between. Writes are never repeated: only the caller knows whether
 * one may be (an Idempotency-Key). The last answer is returned as it is.
 */
export function retryingFetch(fetchOnce: (request: Request) => Promise<Response>, asks = READ_ASKS): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET') return fetchOnce(request);
    for (let ask = 1; ; ask++) {
      // A GET has no body, so its request can be sent again as it is; a copy keeps the first untouched.
      const response = await fetchOnce(ask < asks ? request.clone() : request);
      if (!RETRIED_STATUSES.has(response.status) || ask >= asks) return response;
      await response.body?.cancel();
      await pause(retryAfterMs(response), request.signal);
    }
  };
}
