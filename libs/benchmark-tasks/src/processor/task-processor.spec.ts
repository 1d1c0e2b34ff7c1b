import { expect } from '@jest/globals';
import { inThisThread } from '@cinetrace/scorers';
import type { StreamPublisher, StreamRecord } from '@cinetrace/bus';
import { Topics, type TaskJob, type TraceIngestMessage } from '@cinetrace/contracts';
import { OutboundClient } from '@cinetrace/outbound';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TaskAttemptError } from './task-attempt-error';
import type { SecretSource } from './secret-source';
import { TaskProcessor, type AttemptOutcome } from './task-processor';

// ---- local servers standing in for targets, scorer endpoints and a judge ----

interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON; an assertion that reads into it says what it expects there. */
  body: unknown;
}

/** What an OpenAI-style chat endpoint is sent. */
interface ChatBody {
  messages: { role: string; content: string }[];
}
interface TestServer {
  url: string;
  port: number;
  requests: SeenRequest[];
  /** Requests whose client hung up before the answer was written. */
  closedEarly: number;
  close(): Promise<void>;
}
type Handler = (req: SeenRequest, res: ServerResponse) => void;

const servers: TestServer[] = [];
const pendingAnswers = new Set<NodeJS.Timeout>();

async function serve(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const testServer: TestServer = { url: '', port: 0, requests, closedEarly: 0, close: () => Promise.resolve() };
  const server = createServer((req, res) => {
    res.on('error', () => undefined);
    // The client hung up before the answer was written.
    res.on('close', () => !res.writableFinished && (testServer.closedEarly += 1));
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const seen = { path: req.url ?? '', headers: req.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
      requests.push(seen);
      handler(seen, res);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((closed) => server.close(() => closed()));
  };
  Object.assign(testServer, { url: `http://127.0.0.1:${port}`, port, close });
  servers.push(testServer);
  return testServer;
}

const json = (res: ServerResponse, status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
const later = (ms: number, answer: () => void) => pendingAnswers.add(setTimeout(answer, ms));
const answering =
  (status: number, value: unknown): Handler =>
  (_, res) =>
    json(res, status, value);
const chatAnswer = (content: unknown, usage?: unknown) => ({ id: 'chatcmpl-1', choices: [{ index: 0, message: { role: 'assistant', content } }], ...(usage ? { usage } : {}) });

// ---- collaborators ----

/** A trace stream that keeps what was published (or refuses, when told to). */
class RecordingStream implements StreamPublisher {
  readonly serializesRecords = true;
  readonly published: { topic: string; record: StreamRecord<TraceIngestMessage> }[] = [];
  failure: Error | null = null;
  delayMs = 0;

  async publish<T>(topic: string, records: StreamRecord<T>[]): Promise<void> {
    if (this.delayMs) await sleep(this.delayMs);
    if (this.failure) throw this.failure;
    for (const record of records) this.published.push({ topic, record: record as StreamRecord<TraceIngestMessage> });
  }
  async isReachable(): Promise<boolean> {
    return this.failure === null;
  }
  get traces(): TraceIngestMessage[] {
    return this.published.map((p) => p.record.value);
  }
}

const clients: OutboundClient[] = [];
function outbound(allowPrivate = true): OutboundClient {
  const client = new OutboundClient({ allowPrivate });
  clients.push(client);
  return client;
}

/** Secrets as project-service would release them: by name, or refused as unknown (what was asked is recorded). */
function secretSource(values: Record<string, string>): SecretSource & { asked: Array<[string, string, string]> } {
  const asked: Array<[string, string, string]> = [];
  return {
    asked,
    value: async (projectId, name, url) => {
      asked.push([projectId, name, url]);
      if (values[name] === undefined) throw new TaskAttemptError(`the secret '${name}' could not be used: No secret named '${name}' in the benchmark's organization`, false);
      return values[name];
    },
  };
}

function processor(options: { secrets?: Record<string, string>; allowPrivate?: boolean } = {}) {
  const traces = new RecordingStream();
  const secrets = secretSource(options.secrets ?? {});
  const tasks = new TaskProcessor({ outbound: outbound(options.allowPrivate), traces, secrets, scoring: inThisThread });
  return { tasks, traces, secrets };
}

function job(over: Partial<TaskJob> = {}): TaskJob {
  return {
    taskId: 'tsk_01jh8z6v9q3m2r7x5c4b1n0k8d',
    runId: 'run_01jh8z6v9q3m2r7x5c4b1n0k8e',
    benchmarkId: 'bm_01jh8z6v9q3m2r7x5c4b1n0k8f',
    projectId: 'prj_01jh8z6v9q3m2r7x5c4b1n0k8g',
    item: { id: 'dsi_01jh8z6v9q3m2r7x5c4b1n0k8h', index: 3, input: { topic: 'a cat on a roof' }, expected: 'A cat sits on a roof.', metadata: { source: 'handwritten' } },
    target: { type: 'dataset' },
    prompt: null,
    scorers: [{ name: 'exact_match', type: 'exact_match', config: {} }],
    timeoutMs: 5000,
    maxAttempts: 3,
    traceId: 'tr_01jh8z6v9q3m2r7x5c4b1n0k8j',
    ...over,
  };
}
const withOutput = (output: unknown): TaskJob['item'] => ({ ...job().item, metadata: { output } });

/** The TaskAttemptError an attempt failed with; fails the test if it succeeded. */
async function failure(attempt: Promise<AttemptOutcome>): Promise<TaskAttemptError> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TaskAttemptError);
  return error as TaskAttemptError;
}

const spanOf = (message: TraceIngestMessage, suffix: string) => message.trace.spans.find((s) => s.id.endsWith(suffix));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  for (const timer of pendingAnswers) clearTimeout(timer);
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

describe('TaskProcessor, dataset target', () => {
  it('scores the output stored in the item', async () => {
    const { tasks } = processor();
    const outcome = await tasks.attempt(job({ item: withOutput('A cat sits on a roof.') }), 1);
    expect(outcome).toMatchObject({ output: 'A cat sits on a roof.', usage: null, costUsd: null });
    expect(outcome.scores).toEqual([{ scorer: 'exact_match', score: 1, passed: true, details: null, error: null }]);
    expect(outcome.finishedAt).toBeGreaterThanOrEqual(outcome.startedAt);
  });

  it('fails for good when the item has no metadata.output', async () => {
    const { tasks, traces } = processor();
    const error = await failure(tasks.attempt(job(), 1));
    expect(error).toMatchObject({ message: 'the item has no metadata.output', retryable: false });
    expect(traces.traces).toHaveLength(1);
    expect(traces.traces[0].trace.status).toBe('error');
  });
});

describe('TaskProcessor, http target', () => {
  it('posts the item and the rendered prompt with its headers and key, and keeps output, usage and cost', async () => {
    const target = await serve(answering(200, { output: { caption: 'A cat on a roof' }, usage: { frames: 48, seconds: 2 }, costUsd: 0.25 }));
    const { tasks } = processor({ secrets: { TARGET_KEY: 'sk-target-0123456789' } });
    const prompt = { id: 'prm_01jh8z6v9q3m2r7x5c4b1n0k8k', version: 2, content: 'Film {{topic}}, mood {{ mood }}' };
    const outcome = await tasks.attempt(
      job({ target: { type: 'http', url: `${target.url}/generate`, headers: { 'x-tenant': 'studio-42' }, apiKey: { secret: 'TARGET_KEY' } }, prompt }),
      1,
    );

    expect(outcome).toMatchObject({ output: { caption: 'A cat on a roof' }, usage: { frames: 48, seconds: 2 }, costUsd: 0.25 });
    const [sent] = target.requests;
    expect(sent.path).toBe('/generate');
    expect(sent.headers).toMatchObject({ 'x-tenant': 'studio-42', authorization: 'Bearer sk-target-0123456789' });
    const { item } = job();
    expect(sent.body).toEqual({ input: item.input, item, prompt: 'Film a cat on a roof, mood {{ mood }}' });
  });

  it('sends a null prompt and no Authorization when the benchmark has neither', async () => {
    const target = await serve(answering(200, { output: 'ok' }));
    const { tasks } = processor();
    await tasks.attempt(job({ target: { type: 'http', url: target.url }, scorers: [] }), 1);
    expect((target.requests[0].body as { prompt: unknown }).prompt).toBeNull();
    expect(target.requests[0].headers.authorization).toBeUndefined();
  });

  it('fails for good, naming the variable, when the key variable is not set; the target is not called', async () => {
    const target = await serve(answering(200, { output: 'ok' }));
    const { tasks } = processor({ secrets: { OTHER: 'x' } });
    const error = await failure(tasks.attempt(job({ target: { type: 'http', url: target.url, apiKey: { secret: 'TARGET_KEY' } } }), 1));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('TARGET_KEY');
    expect(target.requests).toHaveLength(0);
  });

  it.each([
    [503, true],
    [500, true],
    [429, true],
    [400, false],
    [404, false],
    [422, false],
  ])('an answer with status %i is retryable: %s', async (status, retryable) => {
    const target = await serve(answering(status, { error: 'nope' }));
    const error = await failure(processor().tasks.attempt(job({ target: { type: 'http', url: target.url } }), 1));
    expect(error.retryable).toBe(retryable);
    expect(error.message).toContain(String(status));
  });

  it.each([
    ['not JSON', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('<html>')],
    ['no output', (res: ServerResponse) => json(res, 200, { result: 'x' })],
    ['a list', (res: ServerResponse) => json(res, 200, [{ output: 'x' }])],
    ['usage that is not numbers', (res: ServerResponse) => json(res, 200, { output: 'x', usage: { tokens: 'many' } })],
    ['a negative cost', (res: ServerResponse) => json(res, 200, { output: 'x', costUsd: -1 })],
  ])('an answer with %s fails for good', async (_, answer) => {
    const target = await serve((_req, res) => answer(res));
    const error = await failure(processor().tasks.attempt(job({ target: { type: 'http', url: target.url } }), 1));
    expect(error.retryable).toBe(false);
  });

  it('fails for good on a target type it does not know', async () => {
    const error = await failure(processor().tasks.attempt(job({ target: { type: 'carrier_pigeon' } }), 1));
    expect(error).toMatchObject({ retryable: false, message: expect.stringContaining('carrier_pigeon') });
  });

  it('takes an output of null as an answer', async () => {
    const target = await serve(answering(200, { output: null, usage: null, costUsd: null }));
    const outcome = await processor().tasks.attempt(job({ target: { type: 'http', url: target.url }, scorers: [] }), 1);
    expect(outcome).toMatchObject({ output: null, usage: null, costUsd: null });
  });

  it('retries an unreachable target', async () => {
    const gone = await serve(answering(200, {}));
    await gone.close();
    const error = await failure(processor().tasks.attempt(job({ target: { type: 'http', url: gone.url } }), 1));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('could not reach');
  });

  it('does not follow a redirect, nor retry it', async () => {
    const elsewhere = await serve(answering(200, { output: 'from elsewhere' }));
    const target = await serve((_, res) => res.writeHead(307, { location: elsewhere.url }).end());
    const error = await failure(processor().tasks.attempt(job({ target: { type: 'http', url: target.url } }), 1));
    expect(error.retryable).toBe(false);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('refuses a loopback target unless private addresses are allowed, for good', async () => {
    const target = await serve(answering(200, { output: 'ok' }));
    const error = await failure(processor({ allowPrivate: false }).tasks.attempt(job({ target: { type: 'http', url: target.url } }), 1));
    expect(error.retryable).toBe(false);
    expect(target.requests).toHaveLength(0);
  });

  it("gives up on the target after the target's own timeout, retryably", async () => {
    const target = await serve((_, res) => later(3000, () => json(res, 200, { output: 'late' })));
    const started = Date.now();
    const error = await failure(processor().tasks.attempt(job({ target: { type: 'http', url: target.url, timeoutMs: 200 } }), 1));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('200 ms');
  });
});

describe('TaskProcessor, openai_chat target', () => {
  it('asks the chat endpoint with the rendered prompt and keeps the answer and the token counts', async () => {
    const llm = await serve(
      answering(200, chatAnswer('A cat naps on warm tiles.', { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19, prompt_tokens_details: { cached: 0 } })),
    );
    const { tasks } = processor({ secrets: { OPENAI_KEY: 'sk-chat-abcdefghijkl' } });
    const prompt = { id: 'prm_01jh8z6v9q3m2r7x5c4b1n0k8k', version: 1, content: 'Describe {{topic}}.' };
    const outcome = await tasks.attempt(
      job({ target: { type: 'openai_chat', baseUrl: `${llm.url}/v1/`, model: 'gpt-test', apiKey: { secret: 'OPENAI_KEY' } }, prompt, scorers: [] }),
      1,
    );

    expect(outcome).toMatchObject({ output: 'A cat naps on warm tiles.', usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 }, costUsd: null });
    expect(Object.keys(outcome.usage ?? {})).toHaveLength(3);
    const [sent] = llm.requests;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-chat-abcdefghijkl');
    expect(sent.body).toEqual({ model: 'gpt-test', messages: [{ role: 'user', content: 'Describe a cat on a roof.' }] });
  });

  it('sends the input itself without a prompt: a string as it is, anything else as JSON', async () => {
    const llm = await serve(answering(200, chatAnswer('ok')));
    const { tasks } = processor();
    const target = { type: 'openai_chat', baseUrl: llm.url, model: 'gpt-test' };
    await tasks.attempt(job({ target, item: { ...job().item, input: 'Say hi' }, scorers: [] }), 1);
    await tasks.attempt(job({ target, scorers: [] }), 1);
    expect(llm.requests.map((r) => (r.body as ChatBody).messages[0].content)).toEqual(['Say hi', JSON.stringify(job().item.input)]);
  });

  it('fails for good on an answer without a message, and retries an overloaded endpoint', async () => {
    const empty = await serve(answering(200, { choices: [] }));
    const busy = await serve(answering(429, { error: { message: 'slow down' } }));
    const { tasks } = processor();
    expect(await failure(tasks.attempt(job({ target: { type: 'openai_chat', baseUrl: empty.url, model: 'm' } }), 1))).toMatchObject({ retryable: false });
    expect(await failure(tasks.attempt(job({ target: { type: 'openai_chat', baseUrl: busy.url, model: 'm' } }), 1))).toMatchObject({ retryable: true });
  });
});

describe('TaskProcessor, scorers', () => {
  it('runs every scorer; one that fails gets an error and the task still succeeds', async () => {
    const judge = await serve(answering(200, chatAnswer('{"score": 0.8, "reason": "mostly there"}')));
    const broken = await serve(answering(500, { error: 'boom' }));
    const { tasks } = processor({ secrets: { JUDGE_KEY: 'sk-judge-0123456789' } });
    const outcome = await tasks.attempt(
      job({
        item: withOutput('A cat sits on a roof.'),
        scorers: [
          { name: 'exact', type: 'exact_match', config: {} },
          { name: 'judge', type: 'llm_judge', config: { baseUrl: judge.url, model: 'judge-model', rubric: 'Is it about a cat?', apiKey: { secret: 'JUDGE_KEY' } } },
          { name: 'remote', type: 'http', config: { url: broken.url } },
        ],
      }),
      1,
    );
    const [exact, judged, remote] = outcome.scores;
    expect(exact).toMatchObject({ scorer: 'exact', score: 1, passed: true, error: null });
    expect(judged).toMatchObject({ scorer: 'judge', score: 0.8, passed: true, details: { reason: 'mostly there' }, error: null });
    expect(remote).toMatchObject({ scorer: 'remote', score: null, passed: null });
    expect(remote.error).toContain('500');
    expect(judge.requests[0].headers.authorization).toBe('Bearer sk-judge-0123456789');
    expect(broken.requests[0].body).toMatchObject({ output: 'A cat sits on a roof.', expected: 'A cat sits on a roof.' });
  });

  it('gives a judge whose secret cannot be had an error saying so, calls nothing, and keeps the task', async () => {
    const judge = await serve(answering(200, chatAnswer('1')));
    const { tasks } = processor();
    const outcome = await tasks.attempt(
      job({
        item: withOutput('x'),
        scorers: [{ name: 'judge', type: 'llm_judge', config: { baseUrl: judge.url, model: 'm', rubric: 'r', apiKey: { secret: 'MISSING' } } }],
      }),
      1,
    );
    expect(outcome.scores).toEqual([
      { scorer: 'judge', score: null, passed: null, details: null, error: "the secret 'MISSING' could not be used: No secret named 'MISSING' in the benchmark's organization" },
    ]);
    expect(judge.requests).toHaveLength(0);
  });

  it('runs the scorers at the same time', async () => {
    const slow = await serve((_, res) => later(400, () => json(res, 200, { score: 1 })));
    const { tasks } = processor();
    const scorers = [1, 2, 3].map((n) => ({ name: `remote-${n}`, type: 'http', config: { url: slow.url } }));
    const outcome = await tasks.attempt(job({ item: withOutput('x'), scorers }), 1);
    expect(outcome.scores.map((s) => s.score)).toEqual([1, 1, 1]);
    expect(outcome.finishedAt - outcome.startedAt).toBeLessThan(1000);
  });
});

/**
 * The timers the processor's own modules set and that have neither fired nor been cleared.
 * (Counting all the process's timers would also count the HTTP client's and the test servers'.)
 */
function processorTimers(): Set<NodeJS.Timeout> {
  const pending = new Set<NodeJS.Timeout>();
  const realSetTimeout = global.setTimeout;
  const realClearTimeout = global.clearTimeout;
  // The first frame outside this file and jest is the code that called setTimeout.
  const caller = () =>
    (new Error().stack ?? '')
      .split('\n')
      .slice(1)
      .find((line) => !line.includes('.spec.ts') && !line.includes('node_modules')) ?? '';
  const setByProcessor = () => /[\\/]processor[\\/][\w-]+\.ts:/.test(caller());
  jest.spyOn(global, 'setTimeout').mockImplementation(((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer: NodeJS.Timeout = realSetTimeout(() => {
      pending.delete(timer);
      callback(...args);
    }, ms);
    if (setByProcessor()) pending.add(timer);
    return timer;
  }) as typeof setTimeout);
  jest.spyOn(global, 'clearTimeout').mockImplementation((timer) => {
    pending.delete(timer as NodeJS.Timeout);
    realClearTimeout(timer);
  });
  return pending;
}

describe('TaskProcessor, time limit and cancel', () => {
  afterEach(() => jest.restoreAllMocks());

  it('fails the attempt retryably at job.timeoutMs, without waiting for a slow target, and records it', async () => {
    const target = await serve(() => undefined); // never answers (and holds no timer that would blur the count below)
    const { tasks, traces } = processor();
    const timers = processorTimers();
    const started = Date.now();
    const attempt = tasks.attempt(job({ target: { type: 'http', url: target.url }, timeoutMs: 300 }), 1);
    expect(timers.size).toBeGreaterThan(0); // the attempt's deadline
    const error = await failure(attempt);
    expect(timers.size).toBe(0);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error).toMatchObject({ message: 'timed out after 300 ms', retryable: true });
    const trace = traces.traces[0];
    expect(trace.trace.status).toBe('error');
    expect(spanOf(trace, '.target')).toMatchObject({ status: 'error', statusMessage: 'timed out after 300 ms' });
  });

  it('counts the scorers in the time limit', async () => {
    const slowScorer = await serve((_, res) => later(3000, () => json(res, 200, { score: 1 })));
    const { tasks, traces } = processor();
    const error = await failure(tasks.attempt(job({ item: withOutput('x'), scorers: [{ name: 'slow', type: 'http', config: { url: slowScorer.url } }], timeoutMs: 300 }), 1));
    expect(error).toMatchObject({ message: 'timed out after 300 ms', retryable: true });
    expect(spanOf(traces.traces[0], '.target')).toMatchObject({ status: 'ok' });
    expect(spanOf(traces.traces[0], '.scorer.0')).toMatchObject({ kind: 'scorer', status: 'error', statusMessage: 'timed out after 300 ms' });
  });

  it('stops at once when cancelled, and a late answer starts no scorer', async () => {
    const target = await serve((_, res) => later(300, () => json(res, 200, { output: 'late' })));
    const scorer = await serve(answering(200, { score: 1 }));
    const { tasks, traces } = processor();
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 50);
    const timers = processorTimers();
    const started = Date.now();
    const attempt = tasks.attempt(job({ target: { type: 'http', url: target.url }, scorers: [{ name: 'remote', type: 'http', config: { url: scorer.url } }] }), 1, cancel.signal);
    expect(timers.size).toBeGreaterThan(0);
    const error = await failure(attempt);
    expect(timers.size).toBe(0);
    expect(Date.now() - started).toBeLessThan(250);
    expect(error).toMatchObject({ message: 'cancelled', retryable: false });
    expect(traces.traces[0].trace.status).toBe('error');
    await sleep(500); // the target would have answered by now
    expect(scorer.requests).toHaveLength(0);
    expect(target.closedEarly).toBe(1); // the call in flight was dropped, not left to run
    expect(traces.traces).toHaveLength(1);
  });

  it('answers with the scores while the trace is still being recorded, and says when it is', async () => {
    const { tasks, traces } = processor();
    traces.delayMs = 300;
    const started = Date.now();
    const outcome = await tasks.attempt(job({ item: withOutput('x') }), 1);
    expect(Date.now() - started).toBeLessThan(250);
    expect(outcome.scores).toHaveLength(1);
    expect(traces.traces).toHaveLength(0);
    await outcome.recorded;
    expect(traces.traces).toHaveLength(1);
  });

  it('calls nothing when the signal is already aborted', async () => {
    const target = await serve(answering(200, { output: 'x' }));
    const cancel = new AbortController();
    cancel.abort();
    const error = await failure(processor().tasks.attempt(job({ target: { type: 'http', url: target.url } }), 1, cancel.signal));
    expect(error).toMatchObject({ message: 'cancelled', retryable: false });
    expect(target.requests).toHaveLength(0);
  });
});

describe('TaskProcessor, trace', () => {
  const spanId = /^[A-Za-z0-9._:-]{1,128}$/;

  it('records the attempt as a trace: the attempt span, the target call under it, one span per scorer', async () => {
    const target = await serve(answering(200, { output: 'A cat sits on a roof.', usage: { tokens: 30 }, costUsd: 0.01 }));
    const { tasks, traces } = processor({ secrets: { TARGET_KEY: 'sk-target-0123456789' } });
    const theJob = job({
      target: { type: 'http', url: target.url, headers: { 'x-tenant': 'studio-tenant-4242' }, apiKey: { secret: 'TARGET_KEY' } },
      scorers: [
        { name: 'exact', type: 'exact_match', config: {} },
        { name: 'similar', type: 'string_similarity', config: {} },
      ],
    });
    const outcome = await tasks.attempt(theJob, 1);

    expect(traces.published).toHaveLength(1);
    const { topic, record } = traces.published[0];
    expect(topic).toBe(Topics.TraceIngest);
    expect(record.key).toBe(`${theJob.projectId}/${theJob.traceId}`);
    const message = record.value;
    expect(message).toMatchObject({ projectId: theJob.projectId, ingestId: expect.stringMatching(/^ing_/) });
    expect(message.trace).toMatchObject({
      id: theJob.traceId,
      name: 'benchmark task',
      status: 'ok',
      input: theJob.item.input,
      output: 'A cat sits on a roof.',
      startTime: outcome.startedAt,
      endTime: outcome.finishedAt,
      metadata: { benchmarkId: theJob.benchmarkId, runId: theJob.runId, taskId: theJob.taskId, itemId: theJob.item.id, itemIndex: 3, attempt: 1 },
      tags: ['benchmark'],
    });

    const [attemptSpan, ...children] = message.trace.spans;
    expect(attemptSpan).toMatchObject({ name: 'attempt 1', kind: 'agent', parentId: null, status: 'ok' });
    expect(children.every((s) => s.parentId === attemptSpan.id)).toBe(true);
    expect(message.trace.spans.every((s) => spanId.test(s.id))).toBe(true);
    expect(new Set(message.trace.spans.map((s) => s.id)).size).toBe(4);

    const targetSpan = spanOf(message, '.target');
    expect(targetSpan).toMatchObject({ kind: 'generation', status: 'ok', output: 'A cat sits on a roof.', usage: { tokens: 30 }, costUsd: 0.01 });
    expect(targetSpan?.input).toEqual(target.requests[0].body);
    const scorerSpans = children.filter((s) => s.kind === 'scorer');
    expect(scorerSpans.map((s) => s.name)).toEqual(['exact', 'similar']);
    expect(scorerSpans.map((s) => s.output)).toEqual(outcome.scores);
    for (const span of message.trace.spans) expect(span.endTime).toBeGreaterThanOrEqual(span.startTime ?? Infinity);

    const published = JSON.stringify(message);
    expect(published).not.toContain('sk-target-0123456789');
    expect(published).not.toContain('studio-tenant-4242');
  });

  it('keeps an API key out of the trace even when the target echoes it back', async () => {
    const target = await serve((req, res) => json(res, 200, { output: { heard: req.headers.authorization } }));
    const { tasks, traces } = processor({ secrets: { TARGET_KEY: 'sk-echoed-0123456789' } });
    const outcome = await tasks.attempt(job({ target: { type: 'http', url: target.url, apiKey: { secret: 'TARGET_KEY' } }, scorers: [] }), 1);
    expect(JSON.stringify(traces.traces[0])).not.toContain('sk-echoed-0123456789');
    // Nor in the task's output, which anyone who can read the project sees.
    expect(outcome.output).toEqual({ heard: 'Bearer [redacted]' });
  });

  it('names the model of a chat target and marks a dataset target as a plain span', async () => {
    const llm = await serve(answering(200, chatAnswer('hi')));
    const { tasks, traces } = processor();
    await tasks.attempt(job({ target: { type: 'openai_chat', baseUrl: llm.url, model: 'gpt-test' }, scorers: [] }), 1);
    await tasks.attempt(job({ item: withOutput('x'), scorers: [] }), 1);
    expect(spanOf(traces.traces[0], '.target')).toMatchObject({ kind: 'generation', model: 'gpt-test', input: llm.requests[0].body });
    expect(spanOf(traces.traces[1], '.target')).toMatchObject({ kind: 'span', output: 'x' });
  });

  it('gives every attempt its own spans in the same trace, and only the first one sets its start', async () => {
    const { tasks, traces } = processor();
    const theJob = job({ item: withOutput('x') });
    await tasks.attempt(theJob, 1);
    await tasks.attempt(theJob, 2);
    const [first, second] = traces.traces;
    expect(second.trace.id).toBe(first.trace.id);
    expect(second.trace.metadata).toMatchObject({ attempt: 2 });
    expect(second.trace.spans[0].name).toBe('attempt 2');
    expect(second.trace).not.toHaveProperty('startTime');
    const firstIds = new Set(first.trace.spans.map((s) => s.id));
    expect(second.trace.spans.some((s) => firstIds.has(s.id))).toBe(false);
  });

  it('records a failed attempt with its error and without output', async () => {
    const target = await serve(answering(400, { error: 'bad request' }));
    const { tasks, traces } = processor();
    const error = await failure(tasks.attempt(job({ target: { type: 'http', url: target.url } }), 1));
    const { trace } = traces.traces[0];
    expect(trace.status).toBe('error');
    expect(trace).not.toHaveProperty('output');
    expect(trace.spans[0]).toMatchObject({ kind: 'agent', status: 'error', statusMessage: error.message });
    expect(spanOf(traces.traces[0], '.target')).toMatchObject({ status: 'error', statusMessage: error.message });
    expect(trace.spans.some((s) => s.kind === 'scorer')).toBe(false);
  });

  it('fails an answer nested too deep to score or record, for good, and records the attempt with that error', async () => {
    const levels = 10_000;
    const target = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"output":${'['.repeat(levels)}${']'.repeat(levels)}}`));
    const { tasks, traces } = processor();
    const error = await failure(tasks.attempt(job({ target: { type: 'http', url: target.url } }), 1));
    expect(error).toMatchObject({ message: "the target's output nests deeper than 32 levels", retryable: false });
    expect(traces.traces).toHaveLength(1);
    expect(traces.traces[0].trace).toMatchObject({ status: 'error', id: job().traceId });
    expect(spanOf(traces.traces[0], '.target')).toMatchObject({ status: 'error', statusMessage: error.message });
  });

  it('takes an answer nested as deep as allowed', async () => {
    const nested: unknown = JSON.parse(`${'['.repeat(32)}${']'.repeat(32)}`);
    const { tasks, traces } = processor();
    const outcome = await tasks.attempt(job({ item: withOutput(nested), scorers: [] }), 1);
    expect(outcome.output).toEqual(nested);
    expect(traces.traces[0].trace.output).toEqual(nested);
  });

  it('records a task given up without running it as a failed attempt, so that its traceId answers', async () => {
    const { tasks, traces } = processor();
    await tasks.recordGivenUp(job(), 2, 'no attempt is left');
    expect(traces.traces).toHaveLength(1);
    const { trace } = traces.traces[0];
    expect(trace).toMatchObject({ id: job().traceId, status: 'error', metadata: { attempt: 2 } });
    expect(trace.spans).toEqual([expect.objectContaining({ name: 'attempt 2', status: 'error', statusMessage: 'no attempt is left' })]);
  });

  it('says, retryably, when the trace of an attempt cannot be recorded', async () => {
    const { tasks, traces } = processor();
    traces.failure = new Error('broker kafka-0 not available');
    const outcome = await tasks.attempt(job({ item: withOutput('x') }), 1);
    const error = await outcome.recorded.then(
      () => undefined,
      (e: unknown) => e as TaskAttemptError,
    );
    expect(error).toBeInstanceOf(TaskAttemptError);
    expect(error!.retryable).toBe(true);
    expect(error!.message).toContain('trace');
    expect(error!.message).not.toContain('kafka');
  });

  it('leaves out an output too large for a trace, but keeps it in the outcome', async () => {
    const big = 'x'.repeat(1024 * 1024 + 10);
    const { tasks, traces } = processor();
    const outcome = await tasks.attempt(job({ item: withOutput(big), scorers: [] }), 1);
    expect(outcome.output).toBe(big);
    expect(traces.traces[0].trace.output).toEqual({ omitted: expect.stringContaining('bytes') });
  });
});
