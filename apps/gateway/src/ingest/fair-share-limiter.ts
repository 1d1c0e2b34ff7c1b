/** Why FairShareLimiter refused a task: its key already holds its share, or every key together fill the queue. */
export class FairShareRefusal extends Error {
  constructor(readonly reason: 'key' | 'total') {
    super(reason === 'key' ? 'The key holds its share of the queue' : 'The queue is full');
    this.name = 'FairShareRefusal';
  }
}

interface KeyState {
  running: number;
  /** Tasks running and waiting. */
  held: number;
  /** When its last task started (FairShareLimiter.starts then). */
  served: number;
  /** The waiting tasks' starters, in arrival order. */
  waiting: Array<() => void>;
}

export interface FairShareLimits {
  /** Tasks that run at once, over all keys. */
  concurrency: number;
  /** Tasks one key may have running and waiting together. */
  perKey: number;
  /** Tasks all keys may have running and waiting together. */
  total: number;
}

/**
 * Runs tasks at most `concurrency` at a time, sharing the slots between keys (projects)
 * rather than by arrival: when a slot frees, the waiting key with the fewest tasks running
 * goes next, of those the one served longest ago (round-robin). So a key that floods the queue waits behind its own
 * tasks, and another key's task waits for one slot at most. A key past `perKey`, or anyone
 * past `total`, is refused at once: each waiting task holds its request's body in memory.
 */
export class FairShareLimiter {
  private running = 0;
  private held = 0;
  /** Counts task starts: a key's `served` is the count at its last start. */
  private starts = 0;
  private readonly keys = new Map<string, KeyState>();
  /** Keys with tasks waiting. */
  private readonly turns = new Set<string>();

  constructor(private readonly limits: FairShareLimits) {}

  /** The refusal `run(key, …)` would meet now, if any: lets a caller refuse before it does the work of preparing the task. */
  refusal(key: string): FairShareRefusal | undefined {
    if ((this.keys.get(key)?.held ?? 0) >= this.limits.perKey) return new FairShareRefusal('key');
    if (this.held >= this.limits.total) return new FairShareRefusal('total');
    return undefined;
  }

  /** Runs `task` in `key`'s turn; throws FairShareRefusal when the key, or everyone, holds too much already. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const refusal = this.refusal(key);
    if (refusal) throw refusal;
    const state = this.keys.get(key) ?? { running: 0, held: 0, served: 0, waiting: [] };
    state.held++;
    this.held++;
    this.keys.set(key, state);
    try {
      if (this.running < this.limits.concurrency && !this.turns.size) this.start(state);
      else await new Promise<void>((resolve) => (state.waiting.push(() => (this.start(state), resolve())), this.turns.add(key)));
      try {
        return await task();
      } finally {
        this.running--;
        state.running--;
      }
    } finally {
      state.held--;
      this.held--;
      if (!state.held) this.keys.delete(key);
      this.next();
    }
  }

  private start(state: KeyState): void {
    this.running++;
    state.running++;
    state.served = ++this.starts;
  }

  private next(): void {
    while (this.running < this.limits.concurrency && this.turns.size) {
      let chosen: string | undefined;
      let best: KeyState | undefined;
      for (const key of this.turns) {
        const state = this.keys.get(key)!;
        if (!best || state.running < best.running || (state.running === best.running && state.served < best.served)) [chosen, best] = [key, state];
      }
      const starter = best!.waiting.shift()!;
      if (!best!.waiting.length) this.turns.delete(chosen!);
      starter();
    }
  }
}
