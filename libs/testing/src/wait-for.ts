import { setTimeout as sleep } from 'node:timers/promises';

/** Runs `check` (assertions) every 20 ms until it passes; past `timeoutMs` its last failure is thrown. */
export async function waitFor(check: () => void, timeoutMs = 4000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await sleep(20);
    }
  }
}
