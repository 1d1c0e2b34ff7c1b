import { isSecretReference, type TaskJob } from '@cinetrace/contracts';
import { OutboundError, type OutboundClient } from '@cinetrace/outbound';
import type { AttemptLimit } from './attempt-limit';
import type { AttemptSecrets } from './attempt-secrets';
import { chatCompletionAnswer, httpTargetAnswer, type TargetAnswer } from './target-answers';
import { targetCallFailure, unusableTarget } from './target-failures';

export type { TargetAnswer } from './target-answers';

export interface TargetCallContext {
  outbound: OutboundClient;
  /** Where `{ secret }` references get their values, for the host of the call. */
  secrets: Pick<AttemptSecrets, 'value'>;
  /** No call may outlive the attempt. */
  limit: Pick<AttemptLimit, 'remainingMs' | 'expire' | 'signal'>;
}

/**
 * A benchmark's target, ready to produce one item's output. What the trace shows of it is
 * known before the call, so a call that fails or never ends is still recorded.
 */
export interface PreparedTarget {
  type: string;
  spanKind: 'span' | 'generation';
  model: string | null;
  /** What is sent, headers left out (they may carry secrets): the target span's input. */
  sent: unknown;
  call(ctx: TargetCallContext): Promise<TargetAnswer>;
}

/** `prompt` is the benchmark's prompt rendered with the item's input, or null without one. */
export function prepareTarget(job: TaskJob, prompt: string | null): PreparedTarget {
  const type = String(job.target.type);
  if (type === 'dataset') return datasetTarget(job);
  if (type === 'http') return httpTarget(job, prompt);
  if (type === 'openai_chat') return openAiChatTarget(job, prompt);
  return {
    type,
    spanKind: 'span',
    model: null,
    sent: undefined,
    call: () => Promise.reject(unusableTarget(`unknown target type '${type.slice(0, 50)}'`)),
  };
}

/** Outputs generated elsewhere, stored with each item. */
function datasetTarget(job: TaskJob): PreparedTarget {
  return {
    type: 'dataset',
    spanKind: 'span',
    model: null,
    sent: undefined,
    call: async () => {
      const { metadata } = job.item;
      const output = metadata !== null && typeof metadata === 'object' && Object.hasOwn(metadata, 'output') ? metadata.output : undefined;
      if (output === undefined) throw unusableTarget('the item has no metadata.output');
      return { output, usage: null, costUsd: null };
    },
  };
}

function httpTarget(job: TaskJob, prompt: string | null): PreparedTarget {
  const { url, headers, timeoutMs } = job.target;
  const { id, index, input, expected, metadata } = job.item;
  const body = { input, item: { id, index, input, expected, metadata }, prompt };
  return {
    type: 'http',
    spanKind: 'generation',
    model: null,
    sent: body,
    call: async (ctx) => {
      if (typeof url !== 'string') throw unusableTarget('the http target has no url');
      const requestHeaders = { ...(await resolvedHeaders(headers, url, ctx)), ...(await authorization(job, url, ctx)) };
      const answer = await post(ctx, 'http', url, body, requestHeaders, ownTimeout(job, timeoutMs));
      return httpTargetAnswer(answer);
    },
  };
}

function openAiChatTarget(job: TaskJob, prompt: string | null): PreparedTarget {
  const { baseUrl, model, timeoutMs } = job.target;
  const { input } = job.item;
  const content = prompt ?? (typeof input === 'string' ? input : (JSON.stringify(input) ?? ''));
  const body = { model, messages: [{ role: 'user', content }] };
  return {
    type: 'openai_chat',
    spanKind: 'generation',
    model: typeof model === 'string' ? model : null,
    sent: body,
    call: async (ctx) => {
      if (typeof model !== 'string') throw unusableTarget('the openai_chat target has no model');
      const url = chatCompletionsUrl(baseUrl);
      const answer = await post(ctx, 'openai_chat', url, body, await authorization(job, url, ctx), ownTimeout(job, timeoutMs));
      return chatCompletionAnswer(answer);
    },
  };
}

/** `<baseUrl>/chat/completions`; a query (`?api-version=`) is kept, and a baseUrl naming the endpoint already is taken as is. */
export function chatCompletionsUrl(baseUrl: unknown): string {
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw unusableTarget('the openai_chat target has no valid baseUrl');
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/chat/completions') ? path : `${path}/chat/completions`;
  return url.toString();
}

/** The target's own limit if it has one, else the attempt's. */
function ownTimeout(job: TaskJob, targetTimeoutMs: unknown): number {
  return typeof targetTimeoutMs === 'number' && targetTimeoutMs > 0 ? targetTimeoutMs : job.timeoutMs;
}

/** `Authorization: Bearer <value>` when the target names the secret holding its key. */
async function authorization(job: TaskJob, url: string, ctx: TargetCallContext): Promise<Record<string, string>> {
  // A benchmark stored before secrets existed: its key is never read from the environment any more.
  if (job.target.apiKeyEnv !== undefined)
    throw unusableTarget('the target names apiKeyEnv, which is no longer read: store the key as a secret and recreate the benchmark with apiKey: { secret }');
  const reference = job.target.apiKey;
  if (reference === undefined || reference === null) return {};
  // Checked at create; a stored target of another shape is not sent half-configured.
  if (!isSecretReference(reference)) throw unusableTarget("the target's apiKey is not a { secret } reference");
  return { Authorization: `Bearer ${await ctx.secrets.value(reference.secret, url)}` };
}

/** Header values as sent: plain strings as they are, each `{ secret }` replaced by its value for this host. */
async function resolvedHeaders(headers: unknown, url: string, ctx: TargetCallContext): Promise<Record<string, string>> {
  if (headers === null || typeof headers !== 'object') return {};
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') resolved[name] = value;
    else if (isSecretReference(value)) resolved[name] = await ctx.secrets.value(value.secret, url);
  }
  return resolved;
}

/** Never past the attempt's deadline: when that is what cut the call short, the attempt has timed out. */
async function post(ctx: TargetCallContext, targetType: string, url: string, body: unknown, headers: Record<string, string>, ownTimeoutMs: number): Promise<unknown> {
  const remainingMs = ctx.limit.remainingMs();
  try {
    return (await ctx.outbound.postJson(url, body, { headers, timeoutMs: Math.min(ownTimeoutMs, remainingMs), signal: ctx.limit.signal, targetType })).body;
  } catch (error) {
    if (remainingMs <= ownTimeoutMs && error instanceof OutboundError && error.reason === 'timeout') ctx.limit.expire();
    throw targetCallFailure(error);
  }
}
