import { BusClient } from '@cinetrace/bus';
import { DomainError, ErrorCode, Patterns, SealedSecretValue, secretIntakeContext } from '@cinetrace/contracts';
import { sealFor } from '@cinetrace/secret-crypto';
import { Injectable } from '@nestjs/common';

/**
 * Seals a secret's value to project-service's intake key before it goes on the bus, so
 * that Kafka's log holds only ciphertext. The public key is asked for once and kept; when
 * project-service no longer opens it (its SECRETS_KEY changed), it is asked for again.
 */
@Injectable()
export class SecretSealer {
  private publicKey?: Promise<string>;

  constructor(private readonly bus: BusClient) {}

  async send<T>(orgId: string, value: string, request: (sealed: SealedSecretValue) => Promise<T>): Promise<T> {
    const sealed = async () => sealFor(await this.intakeKey(), value, secretIntakeContext(orgId));
    try {
      return await request(await sealed());
    } catch (err) {
      if (!(err instanceof DomainError && err.code === ErrorCode.PreconditionFailed)) throw err;
      this.publicKey = undefined;
      return request(await sealed());
    }
  }

  private intakeKey(): Promise<string> {
    this.publicKey ??= this.bus.request(Patterns.SecretIntakeKey, {}).then(
      (reply) => reply.publicKey,
      (err) => {
        this.publicKey = undefined;
        throw err;
      },
    );
    return this.publicKey;
  }
}
