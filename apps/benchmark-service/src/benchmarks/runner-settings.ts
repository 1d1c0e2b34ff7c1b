import type { Runner, RunnerInput } from '@cinetrace/contracts';

/** `base` with each runner field the client sent replacing its value (a field left out keeps it). */
export function withRunnerOverrides(base: Runner, overrides: RunnerInput | undefined): Runner {
  const sent = Object.entries(overrides ?? {}).filter(([, value]) => value !== undefined);
  return { ...base, ...Object.fromEntries(sent) };
}
