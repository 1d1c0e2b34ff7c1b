import { SpanKind } from '@cinetrace/contracts';
import { AiSdk, CINETRACE_VIDEO_PREFIX, CinetraceVideo, GenAi, LlmAttributes, OpenInference, Traceloop } from './otlp-conventions';
import { flattenedMessages, messagesFromEvents } from './otlp-messages';

/**
 * What a span's attributes (and events) say in the trace model's own fields: kind, model,
 * usage, costUsd, input and output, from the GenAI semantic conventions, OpenInference,
 * Traceloop, the Vercel AI SDK and cinetrace.video. The table in docs/api-reference.md
 * ("OTLP ingest", Mapping) lists every attribute read here.
 */

const OPENINFERENCE_KINDS: Record<string, SpanKind> = {
  LLM: 'llm',
  EMBEDDING: 'embedding',
  RETRIEVER: 'retrieval',
  RERANKER: 'retrieval',
  TOOL: 'tool',
  AGENT: 'agent',
  EVALUATOR: 'scorer',
  CHAIN: 'span',
  GUARDRAIL: 'span',
};

const TRACELOOP_KINDS: Record<string, SpanKind> = { workflow: 'span', task: 'span', agent: 'agent', tool: 'tool' };

/** Operations that name a kind; another operation is a generation when the span names a model or provider. */
const GEN_AI_OPERATION_KINDS: Record<string, SpanKind> = {
  chat: 'generation',
  text_completion: 'generation',
  generate_content: 'generation',
  embeddings: 'embedding',
  execute_tool: 'tool',
  invoke_agent: 'agent',
  create_agent: 'agent',
  // The AI SDK's step of an agent's loop (its span holds the step's model calls and tool runs).
  agent_step: 'agent',
};

/** The AI SDK's `ai.operationId`s (its LegacyOpenTelemetry integration), as its GenAI integration names them. */
const AI_SDK_OPERATION_KINDS: Record<string, SpanKind> = {
  'ai.toolCall': 'tool',
  // The outer call runs the steps: what the GenAI integration calls invoke_agent.
  'ai.generateText': 'agent',
  'ai.streamText': 'agent',
  'ai.generateObject': 'agent',
  'ai.streamObject': 'agent',
  'ai.generateText.doGenerate': 'generation',
  'ai.streamText.doStream': 'generation',
  'ai.generateObject.doGenerate': 'generation',
  'ai.streamObject.doStream': 'generation',
  'ai.embed': 'embedding',
  'ai.embed.doEmbed': 'embedding',
  'ai.embedMany': 'embedding',
  'ai.embedMany.doEmbed': 'embedding',
  'ai.rerank': 'retrieval',
  'ai.rerank.doRerank': 'retrieval',
};

const LLM_REQUEST_TYPE_KINDS: Record<string, SpanKind> = { chat: 'generation', completion: 'generation', embedding: 'embedding', rerank: 'retrieval' };

/** Where a span's model is named, the response's first (the model that answered), then the request's. */
const MODEL_SOURCES = [
  GenAi.ResponseModel,
  LlmAttributes.ResponseModelName,
  LlmAttributes.ResponseModel,
  GenAi.RequestModel,
  LlmAttributes.RequestModelName,
  LlmAttributes.RequestModel,
  OpenInference.ModelName,
  OpenInference.EmbeddingModelName,
  OpenInference.RerankerModelName,
  AiSdk.ResponseModel,
  AiSdk.ModelId,
] as const;

/** `usage` names and the attributes each is read from, the first that holds a value. Documented in the API reference. */
const USAGE_SOURCES: ReadonlyArray<[name: string, sources: readonly string[]]> = [
  ['inputTokens', [GenAi.InputTokens, GenAi.PromptTokens, OpenInference.PromptTokens]],
  ['outputTokens', [GenAi.OutputTokens, GenAi.CompletionTokens, OpenInference.CompletionTokens]],
  ['totalTokens', [GenAi.TotalTokens, LlmAttributes.TotalTokens, OpenInference.TotalTokens]],
  // Parts of inputTokens (as the GenAI conventions and OpenAI count them): read from the cache, written to it.
  ['cachedInputTokens', [GenAi.CacheReadInputTokens, GenAi.CacheReadInputTokensOld, OpenInference.CacheReadTokens]],
  ['cacheCreationInputTokens', [GenAi.CacheCreationInputTokens, GenAi.CacheCreationInputTokensOld, OpenInference.CacheWriteTokens]],
  // Part of outputTokens.
  ['reasoningTokens', [GenAi.ReasoningTokens, OpenInference.ReasoningTokens]],
  ['videoSeconds', [CinetraceVideo.DurationSeconds]],
  ['frames', [CinetraceVideo.FrameCount]],
];

/**
 * Attributes whose value becomes the span's input or output, the first that holds one (an
 * empty string says nothing). They stay in `attributes` too (API.md: every original attribute
 * is kept), unless that would take `attributes` past its 64 KiB: then the one taken keeps a
 * note of where its value went (input and output hold 1 MiB each).
 */
export const PAYLOAD_SOURCES = {
  input: [
    GenAi.InputMessages,
    GenAi.Prompt,
    OpenInference.InputValue,
    Traceloop.EntityInput,
    AiSdk.PromptMessages,
    AiSdk.Prompt,
    GenAi.ToolCallArguments,
    AiSdk.ToolCallArgs,
    // What an embedding span embedded (the AI SDK's ai.embed, ai.embedMany and their doEmbed).
    AiSdk.Value,
    AiSdk.Values,
  ],
  output: [
    GenAi.OutputMessages,
    GenAi.Completion,
    OpenInference.OutputValue,
    Traceloop.EntityOutput,
    AiSdk.ResponseText,
    AiSdk.ResponseObject,
    AiSdk.ResponseToolCalls,
    GenAi.ToolCallResult,
    AiSdk.ToolCallResult,
  ],
} as const satisfies Record<'input' | 'output', readonly string[]>;
const OUTPUT_ATTRIBUTES = new Set<string>(PAYLOAD_SOURCES.output);
/** Sources their instrumentation always writes as JSON (JSON.stringify of the value): a JSON string or number there is that value. */
const JSON_SOURCES = new Set<string>([
  Traceloop.EntityInput,
  Traceloop.EntityOutput,
  AiSdk.Prompt,
  AiSdk.PromptMessages,
  AiSdk.ResponseObject,
  AiSdk.ResponseToolCalls,
  AiSdk.ToolCallArgs,
  AiSdk.ToolCallResult,
  AiSdk.Value,
  // A list of JSON texts (each item parsed: jsonItems); a single string is the list as JSON.
  AiSdk.Values,
]);

const holdsPayload = (value: unknown) => value !== undefined && value !== null && value !== '';

/** The attribute a span's input (or output) is taken from: the first of its sources that holds a value. */
export function payloadSource(attributes: Record<string, unknown>, column: keyof typeof PAYLOAD_SOURCES): string | undefined {
  for (const key of PAYLOAD_SOURCES[column]) if (holdsPayload(attributes[key])) return key;
  return undefined;
}

/** What a payload attribute says in `attributes` when its value only fits in the span's input or output. */
export const movedNote = (key: string) => `(moved to the span's ${OUTPUT_ATTRIBUTES.has(key) ? 'output' : 'input'}: attributes hold 64 KiB)`;

/** kind, model, usage, costUsd, input and output of a span with these attributes and events (as the trace model holds them). */
export function semanticFields(a: Record<string, unknown>, events: ReadonlyArray<Record<string, unknown>> | undefined): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const kind = kindOf(a);
  if (kind) fields.kind = kind;
  const model = firstString(a, MODEL_SOURCES);
  if (model !== undefined) fields.model = model;

  let usage: Record<string, unknown> | undefined;
  for (const [name, sources] of USAGE_SOURCES) {
    const value = first(a, sources);
    if (value !== undefined) (usage ??= {})[name] = asNumber(value);
  }
  if (usage) fields.usage = usage;
  const cost = sentCost(a);
  if (cost !== undefined) fields.costUsd = cost;

  const input = withSystemInstructions(a, payloadOf(a, events, 'input', a[OpenInference.InputMimeType]));
  if (input !== undefined) fields.input = input;
  const output = payloadOf(a, events, 'output', a[OpenInference.OutputMimeType]);
  const video = videoAsset(a);
  // A generated video is the span's output (the console plays it); a text output beside it stays readable in `textOutput`.
  if (video) fields.output = output === undefined ? video : { ...video, textOutput: output };
  else if (output !== undefined) fields.output = output;
  return fields;
}

/** The span's input or output: its source attribute's value, else what its events or flattened messages say. */
function payloadOf(a: Record<string, unknown>, events: ReadonlyArray<Record<string, unknown>> | undefined, column: 'input' | 'output', mimeType: unknown): unknown {
  const key = payloadSource(a, column);
  if (key === AiSdk.Values && Array.isArray(a[key])) return jsonItems(a[key]);
  if (key !== undefined) return payloadValue(a[key], JSON_SOURCES.has(key) ? 'application/json' : mimeType);
  return (events?.length ? messagesFromEvents(events, column, parseJsonText) : undefined) ?? flattenedMessages(a, column);
}

/**
 * The GenAI conventions carry the system prompt apart from the chat history, in
 * `gen_ai.system_instructions` (a list of parts, as JSON). What the model was told reads
 * whole only with it, so it becomes the input's first message, shaped as the conventions'
 * own messages are: `{ role: "system", parts }`. Only when the input is a list of messages,
 * or there is none (then the input is that one message); another input (a prompt string)
 * is left as it came, and the instructions stay in `attributes` alone.
 */
export function withSystemInstructions(a: Record<string, unknown>, input: unknown): unknown {
  const instructions = a[GenAi.SystemInstructions];
  if (!holdsPayload(instructions) || (input !== undefined && !Array.isArray(input))) return input;
  const system = { role: 'system', parts: systemParts(instructions) };
  return input === undefined ? [system] : [system, ...(input as unknown[])];
}

/** Whether a span's input holds its system instructions (withSystemInstructions): it is made of two attributes then, a copy of neither. */
export const joinsSystemInstructions = (a: Record<string, unknown>, input: unknown): boolean => holdsPayload(a[GenAi.SystemInstructions]) && Array.isArray(input);

/** The parts of the system instructions: their list; a plain text (not the conventions' JSON) as one text part. */
function systemParts(instructions: unknown): unknown[] {
  const parsed = parseJsonText(instructions);
  if (Array.isArray(parsed)) return parsed;
  if (parsed !== null && typeof parsed === 'object') return [parsed];
  return [{ type: 'text', content: parsed }];
}

/** A list of JSON texts as the values they hold (the AI SDK writes each item with JSON.stringify); an item that does not parse stays its text. */
function jsonItems(items: unknown[]): unknown[] {
  return items.map((item) => payloadValue(item, 'application/json'));
}

function kindOf(a: Record<string, unknown>): SpanKind | undefined {
  const openInference = a[OpenInference.SpanKind];
  if (typeof openInference === 'string' && OPENINFERENCE_KINDS[openInference.toUpperCase()]) return OPENINFERENCE_KINDS[openInference.toUpperCase()];
  const traceloop = a[Traceloop.SpanKind];
  if (typeof traceloop === 'string' && Object.hasOwn(TRACELOOP_KINDS, traceloop)) return TRACELOOP_KINDS[traceloop];
  const operation = a[GenAi.OperationName];
  if (typeof operation === 'string' && Object.hasOwn(GEN_AI_OPERATION_KINDS, operation)) return GEN_AI_OPERATION_KINDS[operation];
  const aiSdk = a[AiSdk.OperationId];
  if (typeof aiSdk === 'string' && Object.hasOwn(AI_SDK_OPERATION_KINDS, aiSdk)) return AI_SDK_OPERATION_KINDS[aiSdk];
  const requestType = a[LlmAttributes.RequestType];
  if (typeof requestType === 'string' && Object.hasOwn(LLM_REQUEST_TYPE_KINDS, requestType)) return LLM_REQUEST_TYPE_KINDS[requestType];
  if (a[GenAi.ProviderName] !== undefined || a[GenAi.System] !== undefined || a[GenAi.RequestModel] !== undefined) return 'generation';
  if (Object.keys(a).some((key) => key.startsWith(CINETRACE_VIDEO_PREFIX))) return 'generation';
  return undefined;
}

/** A cost the client sent (OpenInference's llm.cost.*): the total, else the prompt's and completion's together. */
function sentCost(a: Record<string, unknown>): unknown {
  const total = a[OpenInference.CostTotal];
  if (total !== undefined) return asNumber(total);
  const prompt = a[OpenInference.CostPrompt];
  const completion = a[OpenInference.CostCompletion];
  if (prompt === undefined && completion === undefined) return undefined;
  const parts = [prompt, completion].filter((v) => v !== undefined).map(asNumber);
  // A part that is not a number goes to validation as it is, which names it.
  return parts.every((v) => typeof v === 'number') ? (parts as number[]).reduce((sum, v) => sum + v, 0) : parts.find((v) => typeof v !== 'number');
}

/** Whether a span's output is a generated video (videoAsset), made of several attributes rather than one. */
export const hasVideoOutput = (a: Record<string, unknown>): boolean => typeof a[CinetraceVideo.OutputUrl] === 'string';

/** The output asset of a video generation, in the media shape API.md names: `{ url, contentType, … }`. */
function videoAsset(a: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!hasVideoOutput(a)) return undefined;
  const asset: Record<string, unknown> = { url: a[CinetraceVideo.OutputUrl] };
  const contentType = a[CinetraceVideo.OutputContentType];
  if (typeof contentType === 'string') asset.contentType = contentType;
  const described: Array<[string, unknown]> = [
    ['width', a[CinetraceVideo.Width]],
    ['height', a[CinetraceVideo.Height]],
    ['fps', a[CinetraceVideo.Fps]],
    ['durationSeconds', a[CinetraceVideo.DurationSeconds]],
    ['frameCount', a[CinetraceVideo.FrameCount]],
    ['seed', a[CinetraceVideo.Seed]],
  ];
  for (const [name, value] of described) if (typeof value === 'number') asset[name] = value;
  return asset;
}

/** JSON-looking payloads (GenAI messages are JSON strings; OpenInference says so by mime type) are kept as JSON. */
export function payloadValue(value: unknown, mimeType: unknown): unknown {
  if (typeof value !== 'string') return value;
  const looksJson = mimeType === 'application/json' || /^\s*[[{]/.test(value);
  if (!looksJson) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

const parseJsonText = (value: unknown) => payloadValue(value, undefined);

/** A number, or a numeric string as one; anything else as it is, for validation to name (usage values and costs are numbers). */
function asNumber(value: unknown): unknown {
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

function first(a: Record<string, unknown>, keys: readonly string[]): unknown {
  for (const key of keys) if (a[key] !== undefined && a[key] !== null) return a[key];
  return undefined;
}

function firstString(a: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) if (typeof a[key] === 'string' && a[key] !== '') return a[key];
  return undefined;
}
