import { setFlagsFromString } from 'node:v8';
import { EnvironmentError } from './environment-error';

/**
 * How far V8 lets the heap grow past what a full GC left live, in percent, before the next
 * full GC. V8's own choice under a high allocation rate is up to 4×: the all-in-one process
 * at 22,000 spans/s grew its heap to 280 MB (90 MB live) and its RSS past 400 MB. At 50%
 * it peaked at 256 MB with the same throughput (bench/README.md, "Round five"). Only the
 * growth step changes; the heap's limit stays V8's, so nothing that fits today runs out.
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;
const MAX_HEAP_GROWING_PERCENT = 1000;

/**
 * Sets V8's heap growing factor from HEAP_GROWING_PERCENT (0: V8's own), before the app
 * allocates much. Answers the percent set, undefined for V8's own; a value that is not a
 * whole number from 0 to 1000 is an EnvironmentError, as any other bad variable.
 */
export function limitHeapGrowth(env: NodeJS.ProcessEnv = process.env, setFlags: (flags: string) => void = setFlagsFromString): number | undefined {
  const raw = env.HEAP_GROWING_PERCENT?.trim();
  const percent = raw === undefined || raw === '' ? DEFAULT_HEAP_GROWING_PERCENT : /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(percent >= 0 && percent <= MAX_HEAP_GROWING_PERCENT)) {
    throw new EnvironmentError([`HEAP_GROWING_PERCENT must be a whole number from 0 to ${MAX_HEAP_GROWING_PERCENT} (0: V8's own), not "${String(raw).slice(0, 32)}"`]);
  }
  if (percent === 0) return undefined;
  setFlags(`--heap-growing-percent=${percent}`);
  return percent;
}
