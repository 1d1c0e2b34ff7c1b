import type { OrgContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { SealedCreateSecretInput, SealedRotateSecretInput, SealedSecretValue } from './secret.inputs';

/** The value inside `input` is sealed to project-service's intake key (SecretIntakeKey). */
export interface SecretCreateRequest {
  ctx: OrgContext;
  input: SealedCreateSecretInput;
}

/** project-service's public X25519 key the gateway seals values to before they cross the bus. */
export interface SecretIntakeKeyReply {
  publicKey: string;
}

/** What a value sealed for intake is bound to: the organization it is written for. */
export const secretIntakeContext = (orgId: string): string => `secret intake\0${orgId}`;

/** Secrets page by id, newest first. */
export type SecretListKey = string;

export interface SecretListRequest {
  ctx: OrgContext;
  filters: { name?: string };
  page: PageRequest<SecretListKey>;
}

export interface SecretRotateRequest {
  ctx: OrgContext;
  id: string;
  input: SealedRotateSecretInput;
}

export interface SecretRequest {
  ctx: OrgContext;
  id: string;
}

export interface SecretActivityRequest {
  ctx: OrgContext;
  id: string;
  page: PageRequest<string>;
}

/** One credential a benchmark names: where (`path`), which secret, and the origin it would go to (secretOrigin). */
export interface SecretUse {
  path: string;
  name: string;
  origin: string;
}

/** benchmark-service → project-service at benchmark create: may these be used in this organization? */
export interface SecretUsesCheckRequest {
  ctx: OrgContext;
  uses: SecretUse[];
}

/** Empty when every use is fine; else one error per use, named by its path. */
export interface SecretUsesCheckReply {
  errors: Array<{ path: string; message: string }>;
}

/**
 * The process making an outbound call → project-service: the value of `name` for a call to
 * `origin` (scheme, host and port, as secretOrigin spells them) on behalf of `projectId`. The answer is sealed to `replyKey` (an X25519 public key,
 * libs/secret-crypto), so the bus never carries the value in clear.
 */
export interface SecretResolveRequest {
  projectId: string;
  name: string;
  origin: string;
  replyKey: string;
}

/** What the sealed value is bound to: the question, so a reply cannot answer another one. */
export const sealedSecretContext = (request: Pick<SecretResolveRequest, 'projectId' | 'name' | 'origin'>): string => `${request.projectId}\0${request.name}\0${request.origin}`;

/**
 * benchmark-service → project-service: which secrets each benchmark names, pushed when it is
 * created and deleted (an outbox relays it). project-service keeps them and refuses to delete
 * a secret a live benchmark names, without asking benchmark-service.
 */
export interface SecretReferencesRecordRequest {
  benchmarks: BenchmarkSecretReferences[];
}

export interface BenchmarkSecretReferences {
  benchmarkId: string;
  orgId: string;
  /** The secret names the benchmark's target and scorers reference. */
  names: string[];
  /** A deleted benchmark names nothing any more, and a later fact cannot bring it back. */
  deleted: boolean;
}

/** The value sealed for the requester (libs/secret-crypto SealedValue): only ciphertext crosses the bus. */
export interface SecretResolveReply {
  sealed: SealedSecretValue;
}
