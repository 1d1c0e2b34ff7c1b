// By the package's name: a relative import of this ES module needs its `.js`, which jest cannot resolve.
import { createApiClient } from '@cinetrace/api-client';

/** A fetch that answers `body` and keeps the request it got. */
function recordingFetch(body: unknown, status = 200) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  };
  return { fetch, requests };
}

describe('createApiClient', () => {
  it('sends the key and the project key, and array filters as a comma list', async () => {
    const { fetch, requests } = recordingFetch({ data: [], nextCursor: null });
    const client = createApiClient({ baseUrl: 'http://api.test', apiKey: 'ct_key', projectKey: 'video', fetch });
    const { data } = await client.GET('/api/v1/traces', { params: { query: { tags: ['prod', 'video'], limit: 5 } } });
    expect(data).toEqual({ data: [], nextCursor: null });
    const url = new URL(requests[0].url);
    expect(url.pathname).toBe('/api/v1/traces');
    expect(url.search).toBe('?tags=prod,video&limit=5');
    expect(requests[0].headers.get('Authorization')).toBe('Bearer ct_key');
    expect(requests[0].headers.get('X-Project-Key')).toBe('video');
  });

  it('sends no key headers it was not given, and answers a problem as the error', async () => {
    const problem = { type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found', detail: 'No project', requestId: 'r1' };
    const { fetch, requests } = recordingFetch(problem, 404);
    const { data, error, response } = await createApiClient({ baseUrl: 'http://api.test', fetch }).GET('/api/v1/projects/{id}', { params: { path: { id: 'prj_x' } } });
    expect(requests[0].headers.has('Authorization')).toBe(false);
    expect(requests[0].headers.has('X-Project-Key')).toBe(false);
    expect(response.status).toBe(404);
    expect(data).toBeUndefined();
    expect(error?.code).toBe('not_found');
  });
});
