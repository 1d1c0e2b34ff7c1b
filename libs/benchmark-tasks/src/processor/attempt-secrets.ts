import type { TaskJob } from '@cinetrace/contracts';

/**
 * Header values shorter than this are not cut out of messages: benchmarks may not hold
 * credentials in headers (they go in apiKeyEnv), and redacting a value like `1` or `json`
 * would garble every message that happens to contain it.
 */
const MIN_REDACTED_HEADER_LENGTH = 8;

export interface AttemptSecrets {
  /** API keys read from the environment (the target's and the judges'): never in a message or a trace. */
  keys: string[];
  /** Keys plus the target's header values: what an error message must not show. */
  inMessages: string[];
}

/** The secret values of one attempt, read from the environment at call time (a rotated key counts at once). */
export function attemptSecrets(job: TaskJob, env: Record<string, string | undefined>): AttemptSecrets {
  const keyNames = [job.target.apiKeyEnv, ...job.scorers.map((s) => (s.type === 'llm_judge' ? s.config?.apiKeyEnv : undefined))];
  const keys = unique(keyNames.map((name) => (typeof name === 'string' ? env[name] : undefined)));
  const headers = job.target.headers;
  const headerValues = headers !== null && typeof headers === 'object' ? Object.values(headers as Record<string, unknown>) : [];
  const longHeaderValues = headerValues.filter((v): v is string => typeof v === 'string' && v.length >= MIN_REDACTED_HEADER_LENGTH);
  return { keys, inMessages: unique([...keys, ...longHeaderValues]) };
}

/** Longest first, so that a secret containing another is cut out whole. */
function unique(values: unknown[]): string[] {
  const strings = values.filter((v): v is string => typeof v === 'string' && v.length > 0);
  return [...new Set(strings)].sort((a, b) => b.length - a.length);
}
