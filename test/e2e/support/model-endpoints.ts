import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** How deep /target/deep nests its output. */
export const DEEP_ANSWER_LEVELS = 10_000;

/** What one endpoint was sent: `Body` is what the reader expects the JSON to be (a claim, not checked). */
export interface Received<Body = unknown> {
  path: string;
  headers: IncomingMessage['headers'];
  body: Body;
}

/** What a benchmark's http target is sent, as far as these endpoints and the tests read it (the suite's items have an object input). */
export interface TargetCall {
  input: { prompt?: string; [field: string]: unknown };
  item: { id: string; input: { prompt?: string; [field: string]: unknown }; [field: string]: unknown };
  prompt?: string | null;
}

/** What an http scorer is sent, as far as /scorer reads it. */
export interface ScorerCall {
  output?: { caption?: unknown } | null;
  expected?: { caption?: unknown } | null;
}

/** What an OpenAI-compatible chat endpoint is sent, as far as /chat reads it. */
export interface ChatCall {
  messages: Array<{ role: string; content: string }>;
}

/**
 * Local HTTP servers standing in for what benchmarks call: a model endpoint (the
 * target), an http scorer and an OpenAI-compatible judge, plus the bad ones (failing,
 * flaky, slow, redirecting to a private address).
 */
export class ModelEndpoints {
  readonly received: Received[] = [];
  /** Calls to /target/counted answering now, and the most there ever were at once. */
  countedNow = 0;
  countedMost = 0;
  private server?: Server;
  private readonly flakyFailures = new Map<string, number>();
  private readonly hungOnce = new Set<string>();

  get baseUrl(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** The same server under the name `localhost`: not a literal address, so only the connect-time check can refuse it. */
  get localhostUrl(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://localhost:${port}`;
  }

  sentTo<Body = unknown>(path: string): Received<Body>[] {
    return this.received.filter((r) => r.path === path) as Received<Body>[];
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        const body: unknown = text ? JSON.parse(text) : undefined;
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body });
        void this.answer(path, body).then(({ status, json, raw, headers }) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(raw ?? (json === undefined ? '' : JSON.stringify(json)));
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private lastAuthorization(): string | undefined {
    const header = this.received[this.received.length - 1]?.headers.authorization;
    return typeof header === 'string' ? header : undefined;
  }

  private async answer(path: string, body: unknown): Promise<{ status: number; json?: unknown; raw?: string; headers?: Record<string, string> }> {
    const target = body as TargetCall; // read on the /target routes only
    switch (path) {
      case '/target/caption':
        // A video model's answer: a caption made from the prompt (or the input) and a duration.
        return {
          status: 200,
          json: {
            output: { caption: target.prompt ?? target.input.prompt, durationSeconds: 4 },
            usage: { frames: 96 },
            costUsd: 0.25,
          },
        };
      case '/target/echo':
        // A careless (or hostile) endpoint that repeats the credential it was sent in its output.
        return { status: 200, json: { output: { caption: target.input.prompt, heard: this.lastAuthorization() } } };
      case '/target/fail':
        return { status: 500, json: { error: 'the model crashed' } };
      case '/target/flaky': {
        const seen = this.flakyFailures.get(target.item.id) ?? 0;
        this.flakyFailures.set(target.item.id, seen + 1);
        return seen === 0 ? { status: 503, json: { error: 'warming up' } } : { status: 200, json: { output: { caption: target.input.prompt } } };
      }
      case '/target/steady':
        // Long enough for a test to kill something mid-run.
        await sleep(400);
        return { status: 200, json: { output: { caption: target.input.prompt } } };
      case '/target/counted':
        // Counts the calls it is answering at once: a run may not make more than its concurrency.
        this.countedMost = Math.max(this.countedMost, ++this.countedNow);
        await sleep(100);
        this.countedNow--;
        return { status: 200, json: { output: { caption: target.input.prompt } } };
      case '/target/hang':
        // Answers only when the test is over: whatever calls it is killed first.
        await sleep(120_000, undefined, { ref: false });
        return { status: 200, json: { output: { caption: 'never seen' } } };
      case '/target/hang-once': {
        // The first call for an item hangs (its caller is stopped meanwhile); the next ones answer.
        const first = !this.hungOnce.has(target.item.id);
        this.hungOnce.add(target.item.id);
        if (first) await sleep(120_000, undefined, { ref: false });
        return { status: 200, json: { output: { caption: target.input.prompt } } };
      }
      case '/target/slow-evil':
        // Slower than a short task lock, and an output that backtracking regexes choke on.
        await sleep(2500);
        return { status: 200, json: { output: `${'a'.repeat(40)}!` } };
      case '/target/slow':
        await sleep(3000);
        return { status: 200, json: { output: { caption: 'too late' } } };
      case '/target/deep':
        // Valid JSON, nested past what JSON.stringify (and so a trace) can hold: written as text.
        return { status: 200, raw: `{"output":${'['.repeat(DEEP_ANSWER_LEVELS)}${']'.repeat(DEEP_ANSWER_LEVELS)}}` };
      case '/target/redirect':
        return { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } };
      case '/scorer':
        return { status: 200, json: { score: (body as ScorerCall).output?.caption === (body as ScorerCall).expected?.caption ? 1 : 0.2, details: { checked: 'caption' } } };
      case '/judge/chat/completions':
        return { status: 200, json: { choices: [{ message: { role: 'assistant', content: 'Score: 0.75 — the motion matches.' } }], usage: { total_tokens: 12 } } };
      case '/chat/chat/completions':
        return {
          status: 200,
          json: {
            choices: [{ message: { role: 'assistant', content: `caption for ${(body as ChatCall).messages[0].content}` } }],
            usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
          },
        };
      default:
        return { status: 404, json: { error: 'no such endpoint' } };
    }
  }
}
