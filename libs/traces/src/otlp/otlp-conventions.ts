/**
 * The OpenTelemetry attribute names the OTLP mapping reads. These are other projects'
 * names (OpenTelemetry GenAI semantic conventions, OpenInference) and our own video
 * namespace, documented in docs/api-reference.md ("OTLP ingest"): never rename one, a
 * client's instrumentation sends it as written here.
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
  InputMessages: 'gen_ai.input.messages',
  OutputMessages: 'gen_ai.output.messages',
  /** The older names of the messages (span attributes before they moved to gen_ai.input/output.messages). */
  Prompt: 'gen_ai.prompt',
  Completion: 'gen_ai.completion',
} as const;

export const OpenInference = {
  SpanKind: 'openinference.span.kind',
  ModelName: 'llm.model_name',
  PromptTokens: 'llm.token_count.prompt',
  CompletionTokens: 'llm.token_count.completion',
  TotalTokens: 'llm.token_count.total',
  InputValue: 'input.value',
  InputMimeType: 'input.mime_type',
  OutputValue: 'output.value',
  OutputMimeType: 'output.mime_type',
} as const;

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
