import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The first answer `refused` holds for, trying again every 250 ms for up to 15 s. The gateway
 * trusts a lag reading for 5 s only (LagGate): on a machine too busy to read the lag in time it
 * lets publishes through until the next reading, which holds them back again.
 */
export async function untilRefused<T>(attempt: () => Promise<T>, refused: (answer: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  let answer = await attempt();
  while (!refused(answer) && Date.now() < deadline) {
    await sleep(250);
    answer = await attempt();
  }
  return answer;
}
