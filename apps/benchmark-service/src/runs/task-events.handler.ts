import type { StreamRecord } from '@cinetrace/bus';
import type { TaskEvent } from '@cinetrace/contracts';
import { countRunsEntered, countTasksEntered, observeTaskDuration, startBenchmarkSeries } from '@cinetrace/metrics';
import { inTransaction } from '@cinetrace/persistence';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TaskDispatcher } from '../execution/task-dispatcher';
import { FactRelay } from '../facts/fact-relay';
import { queueFacts } from '../store/fact-outbox';
import { followLastRun } from '../store/benchmarks.queries';
import { lockRun, updateRunProgress } from '../store/runs.queries';
import { recordRunMedia } from '../store/run-media.queries';
import { storeTaskResults } from '../store/store-task-results';
import { Task } from '../store/task.entity';
import { findTaskResults } from '../store/tasks.queries';
import { mediaIdsIn } from './output-media';
import { applyTaskEvent, settleRun } from './run-progress';

/**
 * Stores what the executors report, a batch of events per transaction: task results
 * (each written once), the run's counters and scores, the run's end. Every ended task
 * makes room in its run's window for the next one.
 */
@Injectable()
export class TaskEventsHandler {
  private readonly logger = new Logger(TaskEventsHandler.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dispatcher: TaskDispatcher,
    private readonly facts: FactRelay,
  ) {
    startBenchmarkSeries();
  }

  readonly handle = async (records: StreamRecord<TaskEvent>[]): Promise<void> => {
    const byRun = new Map<string, TaskEvent[]>();
    for (const { value } of records) {
      if (!byRun.has(value.runId)) byRun.set(value.runId, []);
      byRun.get(value.runId)!.push(value);
    }
    // Counted once the transaction committed: a batch that is retried must not count twice.
    let transitions: Transitions = new Transitions();
    let evaluated = false;
    const refill = await inTransaction(this.dataSource, async (tx) => {
      transitions = new Transitions();
      evaluated = false;
      const moreToHandOver: Array<{ runId: string; concurrency: number }> = [];
      const now = Date.now();
      for (const [runId, events] of byRun) {
        const run = await lockRun(tx, { id: runId });
        if (!run) continue;
        const statusBefore = run.status;
        const tasks = await findTaskResults(tx, [...new Set(events.map((e) => e.taskId))]);
        const byId = new Map(tasks.filter((task) => task.runId === runId).map((task) => [task.id, task]));
        const changed = new Set<Task>();
        let anEnd = false;
        for (const event of events) {
          const task = byId.get(event.taskId);
          const taskBefore = task?.status;
          if (!task || !applyTaskEvent(run, task, event)) continue;
          changed.add(task);
          transitions.task(taskBefore, task);
          if (event.kind === 'finished') anEnd = true;
        }
        if (changed.size === 0) continue;
        await storeTaskResults(tx, [...changed]);
        await recordRunMedia(tx, run.id, mediaNamedBy(changed));
        const statusApplied = run.status;
        const settled = settleRun(run, now);
        transitions.run(statusBefore, statusApplied, run.status);
        await updateRunProgress(tx, run);
        if (run.status !== statusBefore) await followLastRun(tx, run.benchmarkId, run.id, run.status, now);
        // A completed run of a prompt is what a release's gate judges by (prompt-service keeps it).
        if (settled && run.status === 'completed' && run.promptId !== null) {
          await queueFacts(tx, 'gate-run', [run.id]);
          evaluated = true;
        }
        if (anEnd && !settled) moreToHandOver.push({ runId: run.id, concurrency: run.runner.concurrency });
      }
      return moreToHandOver;
    });
    transitions.count();
    if (evaluated) this.facts.wake();
    // Not awaited: the next batch of events need not wait for the queue (the dispatcher takes the fills of a run in turn, and its sweep retries a failed one).
    for (const { runId, concurrency } of refill) {
      this.dispatcher.tasksEnded(runId, concurrency).catch((err) => this.logger.warn(`Run ${runId}: next tasks not handed over yet: ${(err as Error).message}`));
    }
  };
}

/** The media the tasks' outputs name, each once (what the run summary counts annotations over). */
function mediaNamedBy(tasks: Iterable<Task>): string[] {
  const ids = new Set<string>();
  for (const task of tasks) for (const id of mediaIdsIn(task.output)) ids.add(id);
  return [...ids];
}

/** The statuses runs and tasks entered while one batch of events was applied. */
class Transitions {
  private readonly runs: string[] = [];
  private readonly tasks: Array<{ status: string; durationMs: number | null }> = [];

  task(before: string | undefined, task: Pick<Task, 'status' | 'durationMs'>): void {
    if (task.status !== before) this.tasks.push({ status: task.status, durationMs: task.durationMs });
  }

  /** Events may move a run (queued → running), then settling it may end it. */
  run(before: string, applied: string, settled: string): void {
    if (applied !== before) this.runs.push(applied);
    if (settled !== applied) this.runs.push(settled);
  }

  count(): void {
    for (const status of this.runs) countRunsEntered(status);
    for (const { status, durationMs } of this.tasks) {
      countTasksEntered(status);
      // Ended tasks have a duration (from their last attempt's start); a running one does not yet.
      if (status !== 'running' && durationMs !== null && durationMs !== undefined) observeTaskDuration(status, durationMs / 1000);
    }
  }
}
