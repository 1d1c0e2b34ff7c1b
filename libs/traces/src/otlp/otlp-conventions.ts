/**
 * The OpenTelemetry attribute names the OTLP mapping reads. These are other projects'
 * names (OpenTelemetry GenAI semantic conventions, OpenInference, Traceloop's OpenLLMetry,
 * the Vercel AI SDK) and our own video namespace, documented in docs/api-reference.md
 * ("OTLP ingest"): never rename one, a client's instrumentation sends it as written here.
 */
export const GenAi = {
  OperationName: 'gen_ai.operation.name',
  ProviderName: 'gen_ai.provider.name',
  /** The older name of gen_ai.provider.name (semantic conventions before 1.37). */
  System: 'gen_ai.system',
  RequestModel: 'gen_ai.request.model',
  ResponseModel: 'gen_ai.response.model',
  InputTokens: 'gen_ai.usage.input_tokens',
  OutputTokens: 'gen_ai.usage.output_tokens',
  /** The older names of the token counts (and Traceloop's). */
  PromptTokens: 'gen_ai.usage.prompt_tokens',
  CompletionTokens: 'gen_ai.usage.completion_tokens',
  TotalTokens: 'gen_ai.usage.total_tokens',
  CacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  CacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  /** The older names of the two above (before semantic conventions 1.38), still what Traceloop sends. */
  CacheReadInputTokensOld: 'gen_ai.usage.cache_read_input_tokens',
  CacheCreationInputTokensOld: 'gen_ai.usage.cache_creation_input_tokens',
  /** Traceloop's; the conventions have no name for reasoning tokens yet. */
  ReasoningTokens: 'gen_ai.usage.reasoning_tokens',
  InputMessages: 'gen_ai.input.messages',
  OutputMessages: 'gen_ai.output.messages',
  /** The older names of the messages (span attributes before they moved to gen_ai.input/output.messages). */
  Prompt: 'gen_ai.prompt',
  Completion: 'gen_ai.completion',
  /** The system prompt, given apart from the chat history: a list of parts (`[{ "type": "text", "content": "…" }]`) as JSON. */
  SystemInstructions: 'gen_ai.system_instructions',
  ToolCallArguments: 'gen_ai.tool.call.arguments',
  ToolCallResult: 'gen_ai.tool.call.result',
  ConversationId: 'gen_ai.conversation.id',
} as const;

/**
 * Span events that carry messages (the conventions' events before the messages became the
 * gen_ai.input/output.messages attributes): one event a message, or one event holding all.
 */
export const GenAiEvents = {
  SystemMessage: 'gen_ai.system.message',
  UserMessage: 'gen_ai.user.message',
  AssistantMessage: 'gen_ai.assistant.message',
  ToolMessage: 'gen_ai.tool.message',
  Choice: 'gen_ai.choice',
  /** Older still: the whole prompt in its `gen_ai.prompt` attribute, the completion in `gen_ai.completion`. */
  ContentPrompt: 'gen_ai.content.prompt',
  ContentCompletion: 'gen_ai.content.completion',
} as const;

export const OpenInference = {
  SpanKind: 'openinference.span.kind',
  ModelName: 'llm.model_name',
  EmbeddingModelName: 'embedding.model_name',
  RerankerModelName: 'reranker.model_name',
  PromptTokens: 'llm.token_count.prompt',
  CompletionTokens: 'llm.token_count.completion',
  TotalTokens: 'llm.token_count.total',
  CacheReadTokens: 'llm.token_count.prompt_details.cache_read',
  CacheWriteTokens: 'llm.token_count.prompt_details.cache_write',
  ReasoningTokens: 'llm.token_count.completion_details.reasoning',
  CostTotal: 'llm.cost.total',
  CostPrompt: 'llm.cost.prompt',
  CostCompletion: 'llm.cost.completion',
  InputValue: 'input.value',
  InputMimeType: 'input.mime_type',
  OutputValue: 'output.value',
  OutputMimeType: 'output.mime_type',
  /** Flattened messages: `llm.input_messages.0.message.role`, `….message.content`, …, read when input.value is absent. */
  InputMessagesPrefix: 'llm.input_messages.',
  OutputMessagesPrefix: 'llm.output_messages.',
  /** The context attributes OpenInference's helpers put on every span (setSession, setUser, setTags, setMetadata). */
  SessionId: 'session.id',
  UserId: 'user.id',
  /** A list of strings, or (OpenInference JS) that list as a JSON string. */
  Tags: 'tag.tags',
  /** A JSON object as a string. */
  Metadata: 'metadata',
} as const;

/** Other names of models and token counts (Traceloop's older attributes, and instrumentations that followed them). */
export const LlmAttributes = {
  RequestModelName: 'llm.request.model_name',
  ResponseModelName: 'llm.response.model_name',
  RequestModel: 'llm.request.model',
  ResponseModel: 'llm.response.model',
  TotalTokens: 'llm.usage.total_tokens',
  /** Traceloop's request type: chat, completion, embedding, rerank. */
  RequestType: 'llm.request.type',
} as const;

/** Traceloop's OpenLLMetry (its SDKs' workflow, task, agent and tool spans, and association properties). */
export const Traceloop = {
  SpanKind: 'traceloop.span.kind',
  EntityInput: 'traceloop.entity.input',
  EntityOutput: 'traceloop.entity.output',
  /** `withAssociationProperties`: the SDK's own names are user_id and session_id; its older documentation wrote userId and sessionId. */
  UserIds: ['traceloop.association.properties.user_id', 'traceloop.association.properties.userId'],
  SessionIds: ['traceloop.association.properties.session_id', 'traceloop.association.properties.sessionId'],
} as const;

/** The Vercel AI SDK's own attributes (its LegacyOpenTelemetry integration, and earlier versions' telemetry). */
export const AiSdk = {
  /** `ai.generateText`, `ai.generateText.doGenerate`, `ai.toolCall`, `ai.embed`, … */
  OperationId: 'ai.operationId',
  ModelId: 'ai.model.id',
  ResponseModel: 'ai.response.model',
  /** On the outer span: `{ system?, prompt?, messages? }` as JSON. */
  Prompt: 'ai.prompt',
  /** On a model call's span: the messages sent, as JSON. */
  PromptMessages: 'ai.prompt.messages',
  ResponseText: 'ai.response.text',
  ResponseObject: 'ai.response.object',
  ResponseToolCalls: 'ai.response.toolCalls',
  ToolCallArgs: 'ai.toolCall.args',
  ToolCallResult: 'ai.toolCall.result',
  /** On an `ai.embed` span: the value embedded, as JSON. */
  Value: 'ai.value',
  /** On `ai.embedMany` and the `.doEmbed` spans: the values embedded, a list of strings each a value as JSON. */
  Values: 'ai.values',
  /** `experimental_telemetry: { metadata: { userId, sessionId } }` of AI SDK versions before 7, as their docs and Langfuse's advise. */
  UserId: 'ai.telemetry.metadata.userId',
  SessionId: 'ai.telemetry.metadata.sessionId',
} as const;

/** Who and what a trace is about, wherever an instrumentation puts it. */
export const TraceIdentity = {
  /** OpenTelemetry's general attribute for the end user (user.id replaced it). */
  EndUserId: 'enduser.id',
} as const;

/** Resource attributes a trace's `metadata` takes (the first span's resource that has them, the root's first). */
export const RESOURCE_METADATA_KEYS = ['service.name', 'service.version', 'deployment.environment', 'deployment.environment.name'] as const;

/** Cinetrace's own attributes of a video generation span. */
export const CinetraceVideo = {
  DurationSeconds: 'cinetrace.video.duration_seconds',
  Width: 'cinetrace.video.width',
  Height: 'cinetrace.video.height',
  Fps: 'cinetrace.video.fps',
  FrameCount: 'cinetrace.video.frame_count',
  Seed: 'cinetrace.video.seed',
  OutputUrl: 'cinetrace.video.output.url',
  OutputContentType: 'cinetrace.video.output.content_type',
  GenerationSeconds: 'cinetrace.video.generation_seconds',
} as const;

export const CINETRACE_VIDEO_PREFIX = 'cinetrace.video.';

/**
 * Keys the mapping adds to a span's `attributes` for what OTLP carries beside the span's
 * own attributes. `otel.` is OpenTelemetry's reserved namespace, so no instrumentation
 * attribute collides with these.
 */
export const OtelExtras = {
  SpanKind: 'otel.span_kind',
  Resource: 'otel.resource',
  Scope: 'otel.scope',
  Links: 'otel.links',
  TraceState: 'otel.trace_state',
} as const;
