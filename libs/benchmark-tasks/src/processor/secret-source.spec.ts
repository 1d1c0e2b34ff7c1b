import { expect } from '@jest/globals';
import { DomainError, ErrorCode, Patterns, sealedSecretContext, type SecretResolveRequest } from '@cinetrace/contracts';
import { sealFor } from '@cinetrace/secret-crypto';
import { BusSecretSource, originOf } from './secret-source';
import { TaskAttemptError } from './task-attempt-error';

/** A bus whose project-service answers with `answer(request)`; what was asked is recorded. */
function bus(answer: (request: SecretResolveRequest) => unknown) {
  const asked: Array<{ pattern: string; request: SecretResolveRequest }> = [];
  return {
    asked,
    request: async <T>(pattern: string, payload: unknown): Promise<T> => {
      asked.push({ pattern, request: payload as SecretResolveRequest });
      return answer(payload as SecretResolveRequest) as T;
    },
  };
}

describe('BusSecretSource', () => {
  it('asks project-service with the project, the name, the destination origin and a one-use key, and opens the sealed answer', async () => {
    const fake = bus((r) => ({ sealed: sealFor(r.replyKey, 'sk-value-123', sealedSecretContext(r)) }));
    const source = new BusSecretSource(fake);
    expect(await source.value('prj_1', 'MODEL_KEY', 'https://API.example.com:8443/v1/chat?x=1')).toBe('sk-value-123');
    expect(await source.value('prj_1', 'MODEL_KEY', 'https://api.example.com/v1')).toBe('sk-value-123');
    const [first, second] = fake.asked;
    expect(first.pattern).toBe(Patterns.SecretResolve);
    expect(first.request).toEqual({ projectId: 'prj_1', name: 'MODEL_KEY', origin: 'https://api.example.com:8443', replyKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    // A fresh key pair per request: one reply in the log opens nothing else.
    expect(second.request).toMatchObject({ origin: 'https://api.example.com:443' });
    expect(second.request.replyKey).not.toBe(first.request.replyKey);
  });

  it('refuses an answer sealed for another question or another key', async () => {
    const otherHost = new BusSecretSource(bus((r) => ({ sealed: sealFor(r.replyKey, 'v', sealedSecretContext({ ...r, origin: 'https://evil.example.com:443' })) })));
    await expect(otherHost.value('prj_1', 'K', 'https://api.example.com')).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('did not open') });
  });

  it('fails the attempt for good on a refusal, and for another try when project-service is unreachable', async () => {
    const refused = new BusSecretSource(bus(() => Promise.reject(new DomainError(ErrorCode.Conflict, "The secret 'K' may not be sent to x.example.com"))));
    const error = await refused.value('prj_1', 'K', 'https://x.example.com').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskAttemptError);
    expect(error).toMatchObject({ retryable: false, message: "the secret 'K' could not be used: The secret 'K' may not be sent to x.example.com" });
    const down = new BusSecretSource(bus(() => Promise.reject(new DomainError(ErrorCode.Unavailable, 'timed out'))));
    await expect(down.value('prj_1', 'K', 'https://x.example.com')).rejects.toMatchObject({ retryable: true });
  });

  it('names the scheme, host and port of a URL as project-service compares them', () => {
    expect(originOf('http://[::1]:8080/x')).toBe('http://[::1]:8080');
    expect(originOf('https://Models.Example.COM/')).toBe('https://models.example.com:443');
    expect(originOf('http://models.example.com/v1')).toBe('http://models.example.com:80');
    expect(() => originOf('not a url')).toThrow(TaskAttemptError);
    expect(() => originOf('ftp://models.example.com/')).toThrow(TaskAttemptError);
  });
});
