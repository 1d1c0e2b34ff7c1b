import type { TaskJob } from '@cinetrace/contracts';
import type { SecretSource } from './secret-source';

/**
 * Plain header values shorter than this are not cut out of messages: credentials may only
 * come from secrets, and redacting a value like `1` or `json` would garble every message
 * that happens to contain it.
 */
const MIN_REDACTED_HEADER_LENGTH = 8;

/**
 * The secret values of one attempt: asked for when a call needs one (a rotated secret counts
 * at the next task), remembered only until the attempt ends, so that no message, output or
 * trace of the attempt shows them.
 */
export class AttemptSecrets {
  private readonly released = new Set<string>();
  private readonly plainHeaders: string[];

  constructor(
    private readonly job: TaskJob,
    private readonly source: SecretSource,
  ) {
    const headers = job.target.headers;
    const values = headers !== null && typeof headers === 'object' ? Object.values(headers as Record<string, unknown>) : [];
    this.plainHeaders = values.filter((v): v is string => typeof v === 'string' && v.length >= MIN_REDACTED_HEADER_LENGTH);
  }

  /** The value of the organization's secret `name` for a call to `url`. */
  async value(name: string, url: string): Promise<string> {
    const value = await this.source.value(this.job.projectId, name, url);
    if (value.length > 0) this.released.add(value);
    return value;
  }

  /** Every value released so far: never in a trace. */
  get keys(): string[] {
    return longestFirst([...this.released]);
  }

  /** Released values plus the target's long plain header values: what an error message must not show. */
  get inMessages(): string[] {
    return longestFirst([...new Set([...this.released, ...this.plainHeaders])]);
  }
}

/** Longest first, so that a secret containing another is cut out whole. */
function longestFirst(values: string[]): string[] {
  return values.sort((a, b) => b.length - a.length);
}
