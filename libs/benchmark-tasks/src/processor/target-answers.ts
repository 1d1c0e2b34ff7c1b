import { jsonDepth } from '@cinetrace/scorers';
import { malformedAnswer } from './target-failures';

/** What a target produced for one item. */
export interface TargetAnswer {
  output: unknown;
  usage: Record<string, number> | null;
  costUsd: number | null;
}

/**
 * How deep a target's output may nest. Deeper values cannot be written as JSON by the
 * trace, compared by the scorers or stored without recursion running out of stack, and no
 * real model output comes near it; the trace that holds it adds a few levels of its own.
 */
export const MAX_OUTPUT_DEPTH = 32;

/** The answer, unless its output nests too deep to be scored and recorded: then a failed attempt, not a crash. */
export function checkedAnswer(answer: TargetAnswer): TargetAnswer {
  const depth = jsonDepth(answer.output, MAX_OUTPUT_DEPTH);
  if (depth > MAX_OUTPUT_DEPTH) throw malformedAnswer(`the target's output nests deeper than ${MAX_OUTPUT_DEPTH} levels`);
  return answer;
}

const CHAT_USAGE_FIELDS = ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** An http target answers `{ output, usage?, costUsd? }` (API.md, "Benchmarks"). */
export function httpTargetAnswer(body: unknown): TargetAnswer {
  if (!isPlainObject(body)) throw malformedAnswer('the target did not answer a JSON object { output, usage?, costUsd? }');
  if (!Object.hasOwn(body, 'output')) throw malformedAnswer("the target's answer has no output");
  const { output, usage, costUsd } = body;
  // null is read as "not reported", as clients often serialise absent fields that way.
  if (usage != null && !(isPlainObject(usage) && Object.values(usage).every(Number.isFinite))) {
    throw malformedAnswer("the target's usage must be an object of numbers");
  }
  if (costUsd != null && !(typeof costUsd === 'number' && Number.isFinite(costUsd) && costUsd >= 0)) {
    throw malformedAnswer("the target's costUsd must be a number of at least 0");
  }
  return { output, usage: (usage as Record<string, number> | null | undefined) ?? null, costUsd: (costUsd as number | null | undefined) ?? null };
}

/** An OpenAI-compatible chat completion: the output is the first choice's text, the token counts its usage. */
export function chatCompletionAnswer(body: unknown): TargetAnswer {
  const message = isPlainObject(body) && Array.isArray(body.choices) && isPlainObject(body.choices[0]) ? body.choices[0].message : undefined;
  const output = messageText(isPlainObject(message) ? message.content : undefined);
  if (output === undefined) throw malformedAnswer("the target's answer has no choices[0].message.content");
  return { output, usage: tokenUsage(isPlainObject(body) ? body.usage : undefined), costUsd: null };
}

/** Some compatible servers send the content as a list of text parts. */
function messageText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((part) => (isPlainObject(part) && typeof part.text === 'string' ? part.text : undefined));
  return texts.some((t) => t !== undefined) ? texts.join('') : undefined;
}

function tokenUsage(usage: unknown): Record<string, number> | null {
  if (!isPlainObject(usage)) return null;
  const counts = CHAT_USAGE_FIELDS.filter((field) => Number.isFinite(usage[field])).map((field): [string, number] => [field, usage[field] as number]);
  return counts.length ? Object.fromEntries(counts) : null;
}
