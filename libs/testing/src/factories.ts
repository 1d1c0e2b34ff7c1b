import type { TaskJob } from '@cinetrace/contracts';
import { randomBytes } from 'node:crypto';

let counter = 0;

/** A short string unique within this run (and, with its random part, across runs). */
export function unique(prefix = 'x'): string {
  counter += 1;
  return `${prefix}-${counter}-${randomBytes(3).toString('hex')}`;
}

export interface ProjectInput {
  name?: unknown;
  description?: unknown;
  key?: unknown;
  [field: string]: unknown;
}

/** A valid project create body with a unique name; fields can be overridden or added. */
export function aProject(overrides: ProjectInput = {}): ProjectInput {
  return { name: unique('Project'), description: 'Made by the e2e suite', ...overrides };
}

/** A random API key in the bootstrap format tests use. */
export function aTestApiKey(): string {
  return `ct_test_${randomBytes(16).toString('hex')}`;
}

/** A well-formed key nobody issued, for negative authentication tests. */
export function aWrongApiKey(): string {
  return `ct_test_${randomBytes(16).toString('hex')}`;
}

/** A JSON text of exactly `bytes` bytes (UTF-8) that is a valid project create body. */
export function aProjectBodyOfSize(bytes: number): string {
  const base = JSON.stringify({ name: unique('Sized'), description: '' });
  const padding = bytes - Buffer.byteLength(base);
  if (padding < 0) throw new Error(`a project body cannot be smaller than ${Buffer.byteLength(base)} bytes`);
  return JSON.stringify({ name: (JSON.parse(base) as { name: string }).name, description: 'd'.repeat(padding) });
}

/** A benchmark task as an executor receives it: a `dataset` target, no scorers, three attempts of 5 s. */
export function aTaskJob(taskId: string, overrides: Partial<TaskJob> = {}): TaskJob {
  return {
    taskId,
    runId: 'run-1',
    benchmarkId: 'bench-1',
    projectId: 'project-1',
    item: { id: `item-${taskId}`, index: 0, input: { prompt: `prompt of ${taskId}` }, expected: null, metadata: {} },
    target: { type: 'dataset' },
    prompt: null,
    scorers: [],
    timeoutMs: 5000,
    maxAttempts: 3,
    traceId: `trace-${taskId}`,
    ...overrides,
  };
}
