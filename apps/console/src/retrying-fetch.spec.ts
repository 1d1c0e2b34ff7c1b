import { MAX_RETRY_WAIT_MS, retryAfterMs, retryingFetch } from './retrying-fetch';

const answer = (status: number, retryAfter?: string) =>
  new Response(status === 200 ? '{"ok":true}' : '{"status":503}', { status, headers: retryAfter ? { 'Retry-After': retryAfter } : {} });

/** A fetch answering the given statuses in turn, recording what it was asked. */
function scripted(...answers: Response[]) {
  const asked: Request[] = [];
  const fetchOnce = jest.fn(async (request: Request) => {
    asked.push(request);
    return answers.shift() ?? answer(200);
  });
  return { fetchOnce, asked };
}

describe('the console asks a read again while the API is busy', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('asks a GET again after each 503 or 429, waiting its Retry-After, and returns the first other answer', async () => {
    const { fetchOnce, asked } = scripted(answer(503, '2'), answer(429, '1'));
    const pending = retryingFetch(fetchOnce)(new Request('http://api.test/api/v1/media/med_1'));
    await jest.advanceTimersByTimeAsync(1999);
    expect(fetchOnce).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(fetchOnce).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(1000);
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(asked.map((r) => r.url)).toEqual(Array(3).fill('http://api.test/api/v1/media/med_1'));
  });

  it('gives the last 503 to the caller once the asks are spent', async () => {
    const { fetchOnce } = scripted(answer(503, '1'), answer(503, '1'), answer(503, '1'));
    const pending = retryingFetch(fetchOnce, 3)(new Request('http://api.test/x'));
    await jest.advanceTimersByTimeAsync(5000);
    expect((await pending).status).toBe(503);
    expect(fetchOnce).toHaveBeenCalledTimes(3);
  });

  it('never repeats a write, nor an answer that is not 503 or 429', async () => {
    const post = scripted(answer(503, '1'));
    expect((await retryingFetch(post.fetchOnce)(new Request('http://api.test/x', { method: 'POST', body: '{}' }))).status).toBe(503);
    expect(post.fetchOnce).toHaveBeenCalledTimes(1);
    const failed = scripted(answer(500));
    expect((await retryingFetch(failed.fetchOnce)(new Request('http://api.test/x'))).status).toBe(500);
    expect(failed.fetchOnce).toHaveBeenCalledTimes(1);
  });

  it('stops waiting as soon as the caller aborts (the page was left)', async () => {
    const { fetchOnce } = scripted(answer(503, '5'));
    const abort = new AbortController();
    const pending = retryingFetch(fetchOnce)(new Request('http://api.test/x', { signal: abort.signal }));
    const outcome = pending.then(
      () => 'answered',
      () => 'aborted',
    );
    await jest.advanceTimersByTimeAsync(100);
    abort.abort();
    expect(await outcome).toBe('aborted');
    expect(fetchOnce).toHaveBeenCalledTimes(1);
  });

  it('reads Retry-After as seconds, 1 s when absent or unreadable, bounded', () => {
    expect(retryAfterMs(answer(503, '3'))).toBe(3000);
    expect(retryAfterMs(answer(503))).toBe(1000);
    expect(retryAfterMs(answer(503, 'Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(1000);
    expect(retryAfterMs(answer(503, '3600'))).toBe(MAX_RETRY_WAIT_MS);
  });
});
