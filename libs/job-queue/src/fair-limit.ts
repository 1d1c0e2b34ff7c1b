import pLimit from 'p-limit';

/**
 * Runs tasks `concurrency` at a time, sharing the slots fairly between groups (projects):
 * a group has at most `perGroup` tasks running or in line for a slot; its others wait in a
 * line of its own. So one project's flood takes at most `perGroup` slots, and another
 * project's task waits behind at most `perGroup` tasks of each project ahead of it, never
 * behind the whole flood. Two p-limits composed: the group's, then the shared one.
 */
/** What a task is told as it starts. */
export interface FairTurn {
  /** Other tasks of its group are running or waiting. */
  othersOfGroup: boolean;
}

export class FairLimit {
  private readonly shared: pLimit.Limit;
  private readonly groups = new Map<string, pLimit.Limit>();
  private readonly perGroup: number;

  constructor(concurrency: number, perGroup: number) {
    this.shared = pLimit(concurrency);
    this.perGroup = Math.max(1, Math.min(perGroup, concurrency));
  }

  /**
   * Runs `task` in its group's turn. It is told whether others of its group are in line or
   * running beside it as it starts (`othersOfGroup`): a task may then yield the CPU to other
   * groups (a lower priority) while its own group has a backlog.
   */
  run<T>(group: string, task: (turn: FairTurn) => Promise<T>): Promise<T> {
    let own = this.groups.get(group);
    if (!own) this.groups.set(group, (own = pLimit(this.perGroup)));
    const limit = own;
    // The group's count holds this task (running or in line for a shared slot) and its others.
    return limit(() => this.shared(() => task({ othersOfGroup: limit.activeCount + limit.pendingCount > 1 }))).finally(() => {
      // A group with nothing left is forgotten (a project that stopped sending keeps no line).
      if (limit.activeCount + limit.pendingCount <= 1 && this.groups.get(group) === limit) setImmediate(() => this.forget(group, limit));
    });
  }

  /** Tasks running now, over all groups. */
  get activeCount(): number {
    return this.shared.activeCount;
  }

  private forget(group: string, limit: pLimit.Limit): void {
    if (limit.activeCount === 0 && limit.pendingCount === 0 && this.groups.get(group) === limit) this.groups.delete(group);
  }
}
