import { NO_FILTERS, filtersFromSearch, filtersToQuery, filtersToSearch, parseMetadata } from './trace-filters';

describe('filtersToQuery', () => {
  it('sends nothing for no filters', () => {
    expect(filtersToQuery(NO_FILTERS)).toEqual({});
  });

  it('sends the simple filters trimmed, tags as a list, times as ISO UTC', () => {
    const query = filtersToQuery({
      ...NO_FILTERS,
      status: 'error',
      name: ' render ',
      tags: 'prod, video ,,',
      userId: 'u1',
      sessionId: 's1',
      from: '2026-01-01T00:00:00.000Z',
      to: 'not a time',
    });
    expect(query).toEqual({
      status: 'error',
      name: 'render',
      tags: ['prod', 'video'],
      userId: 'u1',
      sessionId: 's1',
      from: '2026-01-01T00:00:00.000Z',
    });
  });

  it('sends metadata in args, as the API takes objects only there', () => {
    const query = filtersToQuery({ ...NO_FILTERS, metadata: 'model=veo-3\nseed=42, draft=false' });
    expect(JSON.parse(query.args!)).toEqual({ metadata: { model: 'veo-3', seed: 42, draft: false } });
  });
});

describe('parseMetadata', () => {
  it('skips pairs without a key or an =', () => {
    expect(parseMetadata('=x, lonely, a=, b=c=d')).toEqual({ a: '', b: 'c=d' });
  });
});

describe('the console URL', () => {
  it('round-trips the filters through the search string', () => {
    const filters = { ...NO_FILTERS, status: 'ok', tags: 'a,b', metadata: 'k=v' };
    expect(filtersFromSearch(filtersToSearch(filters))).toEqual(filters);
    expect(filtersToSearch(NO_FILTERS)).toBe('');
  });
});
