import type { TaskJob } from '@cinetrace/contracts';
import { attemptSecrets } from './attempt-secrets';
import { userFacing } from './task-attempt-error';

const job = (target: Record<string, unknown>, scorers: TaskJob['scorers'] = []) => ({ target, scorers }) as TaskJob;

describe('attemptSecrets and userFacing', () => {
  const env = { TARGET_KEY: 'sk-target-0123456789', JUDGE_KEY: 'sk-judge-abcdefghij', UNUSED: 'not-a-secret-of-this-job' };
  const secrets = attemptSecrets(
    job({ type: 'http', url: 'https://example.com', apiKeyEnv: 'TARGET_KEY', headers: { 'x-tenant': 'tenant-secretish-42', 'x-mode': 'fast' } }, [
      { name: 'judge', type: 'llm_judge', config: { apiKeyEnv: 'JUDGE_KEY' } },
    ]),
    env,
  );

  it('finds the keys the job names in the environment, and the long header values', () => {
    expect(secrets.keys.sort()).toEqual(['sk-judge-abcdefghij', 'sk-target-0123456789']);
    expect(secrets.inMessages).toEqual(expect.arrayContaining([...secrets.keys, 'tenant-secretish-42']));
    expect(secrets.inMessages).not.toContain(env.UNUSED);
  });

  it('cuts them out of a message, but leaves short header values alone', () => {
    const text = userFacing('bad key sk-target-0123456789 for tenant-secretish-42 in fast mode', secrets.inMessages);
    expect(text).toBe('bad key [redacted] for [redacted] in fast mode');
  });

  it('bounds a long message after redacting, so no part of a secret survives the cut', () => {
    const text = userFacing(`${'x'.repeat(290)}sk-target-0123456789`, secrets.inMessages);
    expect(text).not.toContain('sk-target');
    expect(text.length).toBeLessThanOrEqual(301);
  });

  it('has nothing to hide when the key variable is unset', () => {
    expect(attemptSecrets(job({ type: 'openai_chat', apiKeyEnv: 'MISSING' }), {}).keys).toEqual([]);
  });
});
