import type { StreamRecord } from '@cinetrace/bus';
import type { TaskEvent } from '@cinetrace/contracts';
import { inTransaction } from '@cinetrace/persistence';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Benchmark } from '../benchmarks/benchmark.entity';
import { TaskDispatcher } from '../execution/task-dispatcher';
import { lockRun } from './lock-run';
import { runCounters } from './run-cancellation';
import { applyTaskEvent, settleRun } from './run-progress';
import { Run } from './run.entity';
import { Task } from './task.entity';

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
  ) {}

  readonly handle = async (records: StreamRecord<TaskEvent>[]): Promise<void> => {
    const byRun = new Map<string, TaskEvent[]>();
    for (const { value } of records) {
      if (!byRun.has(value.runId)) byRun.set(value.runId, []);
      byRun.get(value.runId)!.push(value);
    }
    const refill = await inTransaction(this.dataSource, async (tx) => {
      const moreToHandOver: string[] = [];
      const now = Date.now();
      for (const [runId, events] of byRun) {
        const run = await lockRun(tx, { id: runId });
        if (!run) continue;
        const statusBefore = run.status;
        // By primary key alone: with run_id too, SQLite picks the (run_id, item_index) index and reads the whole run.
        const tasks = await tx.find(Task, { where: { id: In([...new Set(events.map((e) => e.taskId))]) } });
        const byId = new Map(tasks.filter((task) => task.runId === runId).map((task) => [task.id, task]));
        const changed = new Set<Task>();
        let anEnd = false;
        for (const event of events) {
          const task = byId.get(event.taskId);
          if (!task || !applyTaskEvent(run, task, event)) continue;
          changed.add(task);
          if (event.kind === 'finished') anEnd = true;
        }
        if (changed.size === 0) continue;
        for (const task of changed) await tx.update(Task, { id: task.id }, taskResult(task));
        const settled = settleRun(run, now);
        await tx.update(Run, { id: run.id }, runCounters(run));
        if (run.status !== statusBefore) {
          await tx.update(Benchmark, { id: run.benchmarkId, lastRunId: run.id }, { status: run.status, updatedAt: now });
        }
        if (anEnd && !settled) moreToHandOver.push(run.id);
      }
      return moreToHandOver;
    });
    await Promise.all(
      refill.map((runId) => this.dispatcher.fill(runId).catch((err) => this.logger.warn(`Run ${runId}: next tasks not handed over yet: ${(err as Error).message}`))),
    );
  };
}

function taskResult(task: Task): QueryDeepPartialEntity<Task> {
  const result: Partial<Task> = {
    status: task.status,
    attempts: task.attempts,
    output: task.output,
    scores: task.scores,
    error: task.error,
    usage: task.usage,
    costUsd: task.costUsd,
    startedAt: task.startedAt,
    finishedAt: task.finishedAt,
    durationMs: task.durationMs,
  };
  // TypeORM's deep-partial type cannot express the JSON columns; the values are the row's own.
  return result as QueryDeepPartialEntity<Task>;
}
