import { expect } from '@jest/globals';
import type { TaskJob } from '@cinetrace/contracts';
import { AttemptSecrets } from './attempt-secrets';
import type { SecretSource } from './secret-source';
import { userFacing } from './task-attempt-error';

const job = (target: Record<string, unknown>) => ({ projectId: 'prj_1', target, scorers: [] }) as unknown as TaskJob;

/** A source holding `values`; records what was asked. */
function source(values: Record<string, string>) {
  const asked: Array<[string, string, string]> = [];
  const src: SecretSource = {
    value: async (projectId, name, url) => {
      asked.push([projectId, name, url]);
      return values[name];
    },
  };
  return { src, asked };
}

describe('AttemptSecrets and userFacing', () => {
  const values = { TARGET_KEY: 'sk-target-0123456789', JUDGE_KEY: 'sk-judge-abcdefghij', UNUSED: 'not-asked-for-here' };
  const target = { type: 'http', url: 'https://example.com', apiKey: { secret: 'TARGET_KEY' }, headers: { 'x-tenant': 'tenant-secretish-42', 'x-mode': 'fast' } };

  it('asks for each value with the task project and the destination, and remembers only what was released', async () => {
    const { src, asked } = source(values);
    const secrets = new AttemptSecrets(job(target), src);
    expect(secrets.keys).toEqual([]);
    expect(await secrets.value('TARGET_KEY', 'https://example.com/x')).toBe(values.TARGET_KEY);
    expect(await secrets.value('JUDGE_KEY', 'https://judge.example.com/v1')).toBe(values.JUDGE_KEY);
    expect(asked).toEqual([
      ['prj_1', 'TARGET_KEY', 'https://example.com/x'],
      ['prj_1', 'JUDGE_KEY', 'https://judge.example.com/v1'],
    ]);
    expect(secrets.keys).toEqual([values.TARGET_KEY, values.JUDGE_KEY]);
    expect(secrets.inMessages).toEqual(expect.arrayContaining([...secrets.keys, 'tenant-secretish-42']));
    expect(secrets.inMessages).not.toContain(values.UNUSED);
  });

  it('cuts them out of a message, but leaves short plain header values alone', async () => {
    const secrets = new AttemptSecrets(job(target), source(values).src);
    await secrets.value('TARGET_KEY', 'https://example.com');
    const text = userFacing('bad key sk-target-0123456789 for tenant-secretish-42 in fast mode', secrets.inMessages);
    expect(text).toBe('bad key [redacted] for [redacted] in fast mode');
  });

  it('bounds a long message after redacting, so no part of a secret survives the cut', async () => {
    const secrets = new AttemptSecrets(job(target), source(values).src);
    await secrets.value('TARGET_KEY', 'https://example.com');
    const text = userFacing(`${'x'.repeat(290)}sk-target-0123456789`, secrets.inMessages);
    expect(text).not.toContain('sk-target');
    expect(text.length).toBeLessThanOrEqual(301);
  });

  it('cuts a secret that contains another out whole', async () => {
    const secrets = new AttemptSecrets(job({ type: 'dataset' }), source({ SHORT: 'abc-123-xyz', LONG: 'prefix-abc-123-xyz-suffix' }).src);
    await secrets.value('SHORT', 'https://a.example.com');
    await secrets.value('LONG', 'https://a.example.com');
    expect(userFacing('got prefix-abc-123-xyz-suffix', secrets.inMessages)).toBe('got [redacted]');
  });
});
