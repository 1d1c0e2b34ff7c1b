import type { BusClient } from '@cinetrace/bus';
import { DomainError, ErrorCode, Patterns, sealedSecretContext, secretOrigin, type SecretResolveReply, type SecretResolveRequest } from '@cinetrace/contracts';
import { ReplyKeyPair } from '@cinetrace/secret-crypto';
import { TaskAttemptError } from './task-attempt-error';

/**
 * Where the process making an outbound call gets a secret's value: asked for each call,
 * with the project it runs for and the URL it goes to, and kept no longer than the attempt.
 * Rejects with a TaskAttemptError whose message is fit for users.
 */
export interface SecretSource {
  value(projectId: string, name: string, url: string): Promise<string>;
}

/**
 * Asks project-service over the bus. The answer is sealed to a key pair made for this one
 * request, so the bus (Kafka's log in the distributed mode) only ever holds ciphertext.
 */
export class BusSecretSource implements SecretSource {
  constructor(private readonly bus: Pick<BusClient, 'request'>) {}

  async value(projectId: string, name: string, url: string): Promise<string> {
    const origin = originOf(url);
    const keys = new ReplyKeyPair();
    const request: SecretResolveRequest = { projectId, name, origin, replyKey: keys.publicKey };
    let reply: SecretResolveReply;
    try {
      reply = await this.bus.request(Patterns.SecretResolve, request);
    } catch (err) {
      const error = err instanceof DomainError ? err : undefined;
      // Only an unreachable project-service may answer next time; a missing secret or a refused host will not.
      throw new TaskAttemptError(`the secret '${name}' could not be used: ${error?.detail ?? 'project-service did not answer'}`, !error || error.code === ErrorCode.Unavailable);
    }
    try {
      return keys.open(reply.sealed, sealedSecretContext(request));
    } catch {
      throw new TaskAttemptError(`the secret '${name}' could not be used: its sealed value did not open`, false);
    }
  }
}

/**
 * What a value is released for: the URL's own scheme, host and port (redirects are never
 * followed), so that a secret bound to https on 443 is never sent over plain http or to another port.
 */
export function originOf(url: string): string {
  const origin = secretOrigin(url);
  if (origin === undefined) throw new TaskAttemptError('a secret was asked for a call to an invalid URL', false);
  return origin;
}
