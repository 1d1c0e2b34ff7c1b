import { parseJudgeScore } from './judge-score';
import { HttpScorerConfig, ScoreInput, ScoreOutcome, ScorerDeps, ScorerSpecOf } from './scorer.types';
import { ScorerError } from './scorer-error';
import { scoredExpected, scoredOutput } from './scored-values';

const MAX_DETAILS_BYTES = 16 * 1024;

const JUDGE_INSTRUCTION =
  'Score the output against the rubric above. Answer with a score between 0 and 1 (0 = fails the rubric, 1 = fully meets it) ' +
  'as JSON only: {"score": <number between 0 and 1>, "reason": "<one or two sentences>"}';

/** Asks an OpenAI-compatible chat endpoint to grade the output against the rubric. */
export async function judgeWithLlm(spec: ScorerSpecOf<'llm_judge'>, item: ScoreInput, deps: ScorerDeps): Promise<ScoreOutcome> {
  const { baseUrl, model, rubric, apiKey } = spec.config;
  // A judge stored before secrets existed: its key is never read from the environment any more.
  if (Object.hasOwn(spec.config, 'apiKeyEnv')) throw new ScorerError('the judge names apiKeyEnv, which is no longer read: store the key as a secret and use apiKey: { secret }');
  const url = chatCompletionsUrl(baseUrl);
  const headers: Record<string, string> = {};
  if (apiKey) headers.Authorization = `Bearer ${await deps.secretValue(apiKey.secret, url)}`;
  const request = {
    model,
    messages: [
      { role: 'system', content: `${rubric}\n\n${JUDGE_INSTRUCTION}` },
      { role: 'user', content: JSON.stringify({ input: item.input, expected: scoredExpected(spec, item), output: scoredOutput(spec, item) }, null, 2) },
    ],
    temperature: 0,
  };
  const answer = await post('the judge', url, request, headers, deps);
  const { score, reason } = parseJudgeScore(messageContent(answer));
  return { score, details: reason === undefined ? null : { reason } };
}

/** POSTs the item to the benchmark owner's endpoint, which answers `{ score, passed?, details? }`. */
export async function askHttpScorer(spec: ScorerSpecOf<'http'>, item: ScoreInput, deps: ScorerDeps): Promise<ScoreOutcome> {
  const request = { input: item.input, expected: scoredExpected(spec, item), output: scoredOutput(spec, item), metadata: item.metadata };
  const headers = await resolvedHeaders(spec.config.headers, spec.config.url, deps);
  const answer = await post('the scorer endpoint', spec.config.url, request, headers, deps);
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    throw new ScorerError('the scorer endpoint did not answer a JSON object { score, passed?, details? }');
  }
  const { score, passed, details } = answer as Record<string, unknown>;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) {
    throw new ScorerError('the scorer endpoint answered no score in 0..1');
  }
  return { score, passed: typeof passed === 'boolean' ? passed : undefined, details: boundedDetails(details) };
}

/** Header values as sent: each `{ secret }` replaced by the value released for this URL's host. */
async function resolvedHeaders(headers: HttpScorerConfig['headers'], url: string, deps: ScorerDeps): Promise<Record<string, string>> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    resolved[name] = typeof value === 'string' ? value : await deps.secretValue(value.secret, url);
  }
  return resolved;
}

/** `<baseUrl>/chat/completions`, unless baseUrl already names that endpoint. A query (`?api-version=`) is kept. */
export function chatCompletionsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/chat/completions') ? path : `${path}/chat/completions`;
  return url.toString();
}

async function post(who: string, url: string, body: unknown, headers: Record<string, string>, deps: ScorerDeps): Promise<unknown> {
  let response: { status: number; body: unknown };
  try {
    response = await deps.postJson(url, body, { headers, timeoutMs: deps.timeoutMs });
  } catch (err) {
    throw new ScorerError(`could not reach ${who}: ${(err as Error)?.message ?? String(err)}`);
  }
  // The body of a refusal is not repeated: providers echo part of a wrong key in it.
  if (response.status < 200 || response.status > 299) throw new ScorerError(`${who} answered HTTP ${response.status}`);
  return response.body;
}

/** The text of `choices[0].message.content`; some servers send it as a list of text parts. */
function messageContent(answer: unknown): string {
  const content = (answer as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const text = (content as unknown[])
      .map((part) => {
        const partText = (part as { text?: unknown } | null | undefined)?.text;
        return typeof partText === 'string' ? partText : '';
      })
      .join('');
    if (text) return text;
  }
  throw new ScorerError("the judge's answer has no choices[0].message.content");
}

/** Details are stored with every task's score: an oversized one is replaced by a note. */
function boundedDetails(details: unknown): unknown {
  if (details === undefined) return null;
  const bytes = Buffer.byteLength(JSON.stringify(details) ?? '');
  return bytes > MAX_DETAILS_BYTES ? { note: `details omitted: ${bytes} bytes, more than ${MAX_DETAILS_BYTES}` } : details;
}
