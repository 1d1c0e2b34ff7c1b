import { validateScorers } from '@cinetrace/scorers';
import { credentialUses } from './credential-uses';
import { validateTarget } from './target-rules';

describe('credentialUses', () => {
  it('names every { secret } of a benchmark with its path and the origin (scheme, host, port) its value would go to', () => {
    const target = validateTarget(
      { type: 'http', url: 'https://Models.example.com/render', apiKey: { secret: 'MODEL' }, headers: { 'X-Team': { secret: 'TEAM' }, 'x-mode': 'fast' } },
      { allowPrivate: false },
    );
    const scorers = validateScorers([
      { type: 'exact_match' },
      { type: 'llm_judge', config: { baseUrl: 'https://judge.example.com/v1', model: 'm', rubric: 'r', apiKey: { secret: 'JUDGE' } } },
      { type: 'http', config: { url: 'https://scorer.example.com/score', headers: { Authorization: { secret: 'SCORER' } } } },
    ]);
    if (!target.ok || !scorers.ok) throw new Error('the fixtures must be valid');
    expect(credentialUses(target.target, scorers.scorers)).toEqual([
      { path: 'target.apiKey', name: 'MODEL', origin: 'https://models.example.com:443' },
      { path: 'target.headers.X-Team', name: 'TEAM', origin: 'https://models.example.com:443' },
      { path: 'scorers[1].config.apiKey', name: 'JUDGE', origin: 'https://judge.example.com:443' },
      { path: 'scorers[2].config.headers.Authorization', name: 'SCORER', origin: 'https://scorer.example.com:443' },
    ]);
  });

  it('has nothing for a benchmark without credentials', () => {
    const target = validateTarget({ type: 'dataset' }, { allowPrivate: false });
    const scorers = validateScorers([{ type: 'exact_match' }]);
    if (!target.ok || !scorers.ok) throw new Error('the fixtures must be valid');
    expect(credentialUses(target.target, scorers.scorers)).toEqual([]);
  });
});
