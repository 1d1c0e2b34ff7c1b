import type { SpanInput, StreamScore, TaskJob, TaskScore, TraceIngestMessage, TraceInput } from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import type { PreparedTarget, TargetAnswer } from './targets';
import { boundedPayload, withoutSecrets } from './trace-payloads';

export const TASK_TRACE_NAME = 'benchmark task';
export const TASK_TRACE_TAGS = ['benchmark'];

/** How the attempt ended, as the trace tells it: with its scores when it got that far. */
export type AttemptResult = { output: unknown; scores?: readonly TaskScore[] } | { error: string };

/**
 * The task's scorer results as scores of its trace (source `benchmark`; API.md, "Scores"): a
 * score's number, else its pass as a boolean; a scorer that gave neither (its error) gives none.
 * Ids are the task's and the scorer's place, so a later attempt's scores replace an earlier one's.
 */
export function taskScoresOf(taskId: string, scores: readonly TaskScore[], at: number): StreamScore[] {
  return scores.flatMap((score, index): StreamScore[] => {
    const base = { id: `${taskId}.score.${index}`, spanId: null, name: score.scorer.slice(0, 100), source: 'benchmark' as const, comment: null, evaluatorId: null, createdAt: at };
    if (typeof score.score === 'number' && Number.isFinite(score.score)) return [{ ...base, value: score.score, stringValue: null, dataType: 'numeric' }];
    if (typeof score.passed === 'boolean') return [{ ...base, value: score.passed ? 1 : 0, stringValue: String(score.passed), dataType: 'boolean' }];
    return [];
  });
}

/**
 * Records one attempt as spans while it runs, then gives the trace message. Every attempt
 * adds its own spans to the task's trace (ids carry the attempt number); trace-ingest
 * merges them with those of earlier attempts.
 */
export class AttemptTrace {
  private readonly spans = new Map<string, SpanInput>();
  private readonly unfinished = new Set<string>();
  private sealed = false;

  constructor(
    private readonly job: TaskJob,
    private readonly attempt: number,
    readonly startTime: number,
    private readonly now: () => number,
  ) {}

  /** `<taskId>.a<attempt>`: the parent of everything this attempt did. */
  get attemptSpanId(): string {
    return `${this.job.taskId}.a${this.attempt}`;
  }

  targetStarted(target: PreparedTarget): void {
    this.begin(this.targetSpanId, {
      name: `target ${target.type}`.slice(0, 256),
      kind: target.spanKind,
      ...(target.model !== null ? { model: target.model.slice(0, 256) } : {}),
      ...(target.sent !== undefined ? { input: target.sent } : {}),
      attributes: { targetType: target.type },
    });
  }

  targetFinished(answer: TargetAnswer): void {
    this.end(this.targetSpanId, {
      status: 'ok',
      statusMessage: null,
      output: answer.output,
      ...(answer.usage !== null ? { usage: answer.usage } : {}),
      costUsd: answer.costUsd,
    });
  }

  targetFailed(message: string): void {
    this.end(this.targetSpanId, { status: 'error', statusMessage: message });
  }

  scorerStarted(index: number): void {
    const spec = this.job.scorers[index];
    const name = typeof spec?.name === 'string' && spec.name.length > 0 ? spec.name : String(spec?.type);
    this.begin(this.scorerSpanId(index), { name: name.slice(0, 256), kind: 'scorer', attributes: { scorerType: String(spec?.type) } });
  }

  scorerFinished(index: number, score: TaskScore): void {
    this.end(this.scorerSpanId(index), { status: score.error === null ? 'ok' : 'error', statusMessage: score.error, output: score });
  }

  /** Stops recording: work that outlives the attempt (a late answer) changes nothing any more. */
  seal(): void {
    this.sealed = true;
  }

  /**
   * The trace stream's message for this attempt. Spans still running when it ended are
   * closed with the attempt's error; `secrets` are cut out of every string in it.
   */
  message(result: AttemptResult, endTime: number, secrets: readonly string[]): TraceIngestMessage {
    const error = 'error' in result ? result.error : null;
    const spans = [...this.spans.values()].map((span) =>
      this.unfinished.has(span.id) ? { ...span, status: 'error' as const, statusMessage: error ?? 'did not finish', endTime } : span,
    );
    const attemptSpan: SpanInput = {
      id: this.attemptSpanId,
      parentId: null,
      name: `attempt ${this.attempt}`,
      kind: 'agent',
      status: error === null ? 'ok' : 'error',
      statusMessage: error,
      startTime: this.startTime,
      endTime,
      attributes: { attempt: this.attempt },
    };
    const { item } = this.job;
    const trace: TraceInput = {
      id: this.job.traceId,
      name: TASK_TRACE_NAME,
      status: error === null ? 'ok' : 'error',
      // Only the first attempt sets the start: a later one would move the trace's start past earlier spans.
      ...(this.attempt === 1 ? { startTime: this.startTime } : {}),
      endTime,
      input: boundedPayload(item.input),
      ...('output' in result ? { output: boundedPayload(result.output) } : {}),
      metadata: {
        benchmarkId: this.job.benchmarkId,
        runId: this.job.runId,
        taskId: this.job.taskId,
        itemId: item.id,
        itemIndex: item.index,
        attempt: this.attempt,
      },
      tags: [...TASK_TRACE_TAGS],
      spans: [attemptSpan, ...spans].map(withBoundedPayloads),
    };
    const scores = 'scores' in result && result.scores?.length ? taskScoresOf(this.job.taskId, result.scores, endTime) : [];
    // Nobody asks for its receipt: the worker waits for the stream's acknowledgement instead.
    return {
      ingestId: newId('ing'),
      projectId: this.job.projectId,
      receivedAt: this.now(),
      trace: withoutSecrets(trace, secrets),
      receipt: false,
      ...(scores.length ? { scores } : {}),
    };
  }

  private get targetSpanId(): string {
    return `${this.attemptSpanId}.target`;
  }

  private scorerSpanId(index: number): string {
    return `${this.attemptSpanId}.scorer.${index}`;
  }

  private begin(id: string, fields: Omit<SpanInput, 'id'>): void {
    if (this.sealed) return;
    this.spans.set(id, { id, parentId: this.attemptSpanId, startTime: this.now(), ...fields });
    this.unfinished.add(id);
  }

  private end(id: string, fields: Partial<SpanInput>): void {
    const span = this.spans.get(id);
    if (this.sealed || !span) return;
    this.spans.set(id, { ...span, ...fields, endTime: this.now() });
    this.unfinished.delete(id);
  }
}

function withBoundedPayloads(span: SpanInput): SpanInput {
  return {
    ...span,
    ...(span.input !== undefined ? { input: boundedPayload(span.input) } : {}),
    ...(span.output !== undefined ? { output: boundedPayload(span.output) } : {}),
  };
}
