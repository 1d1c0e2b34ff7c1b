import { Logger } from '@nestjs/common';
import { Worker } from 'node:worker_threads';

/**
 * How many WAL pages the service's own connection lets pile up before it checkpoints by
 * itself (about 40 MB): only reached if the checkpointer thread stops keeping up.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

const INTERVAL_MS = 200;

/** The thread's code: a connection per store, a PASSIVE checkpoint of each every interval. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const stores = new Map();
const checkpoint = (file, db) => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage({ file, failed: String(err && err.message) }); }
};
setInterval(() => stores.forEach((db, file) => checkpoint(file, db)), workerData.intervalMs);
parentPort.on('message', ({ add, remove }) => {
  if (add) {
    try { stores.set(add, new Database(add, { fileMustExist: true })); }
    catch (err) { parentPort.postMessage({ file: add, failed: String(err && err.message) }); }
  }
  if (remove) {
    const db = stores.get(remove);
    stores.delete(remove);
    if (db) { checkpoint(remove, db); db.close(); }
    parentPort.postMessage({ removed: remove });
  }
});
`;

/** One thread for every store of the process (the all-in-one has five), while any is open. */
class CheckpointThread {
  private readonly logger = new Logger(WalCheckpointer.name);
  private readonly worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { intervalMs: INTERVAL_MS, driver: require.resolve('better-sqlite3') },
  });
  private readonly opened = new Map<string, number>();
  private readonly removals = new Map<string, () => void>();
  private readonly warned = new Set<string>();
  private exited = false;

  constructor() {
    this.worker.unref();
    this.worker.on('message', (message: { file?: string; failed?: string; removed?: string }) => {
      if (message.removed) this.removals.get(message.removed)?.();
      if (message.failed && message.file && !this.warned.has(message.file)) {
        this.warned.add(message.file);
        this.logger.warn(`Checkpointing ${message.file} failed (${message.failed}); the store checkpoints by itself instead`);
      }
    });
    this.worker.on('error', (err) => this.logger.warn(`The WAL checkpointer stopped (${err.message}); stores checkpoint by themselves instead`));
    this.worker.on('exit', () => {
      this.exited = true;
      this.removals.forEach((done) => done());
      if (thread === this) thread = undefined;
    });
  }

  add(file: string): void {
    const count = this.opened.get(file) ?? 0;
    this.opened.set(file, count + 1);
    if (count === 0) this.worker.postMessage({ add: file });
  }

  /** Checkpoints the store once more and closes the thread's connection to it (the thread, after its last). */
  async remove(file: string): Promise<void> {
    const count = this.opened.get(file) ?? 0;
    if (count > 1) {
      this.opened.set(file, count - 1);
      return;
    }
    this.opened.delete(file);
    if (this.exited) return;
    const removed = new Promise<void>((resolve) => this.removals.set(file, resolve));
    this.worker.postMessage({ remove: file });
    await removed;
    this.removals.delete(file);
    if (this.opened.size === 0) {
      if (thread === this) thread = undefined;
      await this.worker.terminate();
    }
  }
}

let thread: CheckpointThread | undefined;

/**
 * Copies a SQLite database's write-ahead log back into the database file on a thread of
 * its own. SQLite otherwise checkpoints inside the COMMIT that crosses its threshold, on
 * the event loop, with the file writes and fsync that takes, a large share of a write-heavy
 * batch's time. A PASSIVE checkpoint never blocks the writer or the readers.
 */
export class WalCheckpointer {
  private readonly thread: CheckpointThread;

  constructor(private readonly file: string) {
    thread ??= new CheckpointThread();
    this.thread = thread;
    this.thread.add(file);
  }

  /** Checkpoints once more and stops checkpointing this store. */
  stop(): Promise<void> {
    return this.thread.remove(this.file);
  }
}
