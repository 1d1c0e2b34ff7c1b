import { Logger } from '@nestjs/common';
import { Worker } from 'node:worker_threads';

/**
 * How many WAL pages the service's own connection lets pile up before it checkpoints by
 * itself (about 40 MB): only reached if the checkpointer thread stops keeping up.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

/** The checkpointer thread's code: its own connection, a PASSIVE checkpoint every interval. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage({ failed: String(err && err.message) }); }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/**
 * Copies a SQLite database's write-ahead log back into the database file on a thread of
 * its own. SQLite otherwise checkpoints inside the COMMIT that crosses its threshold, on
 * the event loop, with the file writes and fsync that takes: a third of a write-heavy
 * batch's time. A PASSIVE checkpoint never blocks the writer or the readers.
 */
export class WalCheckpointer {
  private readonly logger = new Logger(WalCheckpointer.name);
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string, intervalMs = 200) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, intervalMs, driver: require.resolve('better-sqlite3') },
    });
    this.worker.unref();
    let warned = false;
    this.worker.on('message', (message: { failed?: string }) => {
      if (message.failed && !warned) {
        warned = true;
        this.logger.warn(`Checkpointing ${file} failed (${message.failed}); the store checkpoints by itself instead`);
      }
    });
    this.worker.on('error', (err) => this.logger.warn(`The checkpointer of ${file} stopped (${err.message}); the store checkpoints by itself instead`));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Checkpoints once more and stops the thread. */
  async stop(): Promise<void> {
    this.worker.postMessage('stop');
    await this.exited;
  }
}
