/** One dependency of a process (its store, the bus, the task queue): reachable or not. */
export type DependencyCheck = () => Promise<boolean>;
export type DependencyChecks = Record<string, DependencyCheck>;
export type DependencyState = 'up' | 'down';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, DependencyState>;
  /** The names of the checks that are down, in the order given. */
  down: string[];
}

/** How long a check may take before it counts as down: a hung dependency is not a ready one. */
export const CHECK_DEADLINE_MS = 2000;

/** Runs every check at once; a check that throws or outlasts `withinMs` is down. */
export async function checkReadiness(checks: DependencyChecks, withinMs = CHECK_DEADLINE_MS): Promise<ReadinessReport> {
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => withinDeadline(checks[name], withinMs)));
  const states = Object.fromEntries(names.map((name, i) => [name, results[i] ? 'up' : 'down'])) as Record<string, DependencyState>;
  const down = names.filter((_, i) => !results[i]);
  return { ready: down.length === 0, checks: states, down };
}

function withinDeadline(check: DependencyCheck, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    Promise.resolve()
      .then(check)
      .then(
        (up) => resolve(up === true),
        () => resolve(false),
      )
      .finally(() => clearTimeout(timer));
  });
}
