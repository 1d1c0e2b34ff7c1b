import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { repoRoot } from './repo-root';

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** If the test runner dies or forgets stop(), its apps must not outlive it. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** One app of the stack, run as `node <entry>`, with its output kept for the test. */
export class AppProcess {
  private chunks: string[] = [];
  private readonly child: ChildProcess;
  /** Resolves once the process has exited and its output is all read, with its code or signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    readonly name: string,
    entry: string,
    env: Record<string, string>,
  ) {
    installExitHook();
    this.child = spawn(process.execPath, [resolve(repoRoot(), entry)], {
      cwd: repoRoot(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(this.child);
    const keep = (data: Buffer) => this.chunks.push(data.toString('utf8'));
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => {
      // 'close', not 'exit': output written just before dying is read by then.
      this.child.once('close', (code, signal) => {
        live.delete(this.child);
        resolve({ code, signal });
      });
      this.child.once('error', (error) => {
        this.chunks.push(`[spawn error] ${error.message}\n`);
        live.delete(this.child);
        resolve({ code: null, signal: null });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Everything the process wrote to stdout and stderr, interleaved. */
  output(): string {
    return this.chunks.join('');
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.running) this.child.kill(signal);
  }

  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
