import type { TaskJob } from '@cinetrace/contracts';
import { OutboundError, type OutboundClient } from '@cinetrace/outbound';
import type { AttemptLimit } from './attempt-limit';
import { chatCompletionAnswer, httpTargetAnswer, type TargetAnswer } from './target-answers';
import { targetCallFailure, unusableTarget } from './target-failures';

export type { TargetAnswer } from './target-answers';

export interface TargetCallContext {
  outbound: OutboundClient;
  env: Record<string, string | undefined>;
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
  /** What is sent, headers left out (they may be credentials): the target span's input. */
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
      const requestHeaders = { ...stringHeaders(headers), ...authorization(job, ctx.env) };
      const answer = await post(ctx, url, body, requestHeaders, ownTimeout(job, timeoutMs));
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
      const answer = await post(ctx, url, body, authorization(job, ctx.env), ownTimeout(job, timeoutMs));
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

/** `Authorization: Bearer <key>` when the target names the variable holding its key. */
function authorization(job: TaskJob, env: Record<string, string | undefined>): Record<string, string> {
  const name = job.target.apiKeyEnv;
  if (name === undefined || name === null) return {};
  const key = typeof name === 'string' ? env[name] : undefined;
  // The error names the variable, which the benchmark shows anyway, never its value.
  if (!key) throw unusableTarget(`the environment variable ${String(name).slice(0, 128)} holding the target's API key is not set`);
  return { Authorization: `Bearer ${key}` };
}

function stringHeaders(headers: unknown): Record<string, string> {
  if (headers === null || typeof headers !== 'object') return {};
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** Never past the attempt's deadline: when that is what cut the call short, the attempt has timed out. */
async function post(ctx: TargetCallContext, url: string, body: unknown, headers: Record<string, string>, ownTimeoutMs: number): Promise<unknown> {
  const remainingMs = ctx.limit.remainingMs();
  try {
    return (await ctx.outbound.postJson(url, body, { headers, timeoutMs: Math.min(ownTimeoutMs, remainingMs), signal: ctx.limit.signal })).body;
  } catch (error) {
    if (remainingMs <= ownTimeoutMs && error instanceof OutboundError && error.reason === 'timeout') ctx.limit.expire();
    throw targetCallFailure(error);
  }
}
