import { IsInt, Max, Min } from 'class-validator';
import { setFlagsFromString } from 'node:v8';
import type { EnvClass } from './env-class';
import { ToInt } from './env-types';

/**
 * How far V8 lets the heap grow past what a full GC left live, in percent, before the next
 * full GC. V8's own choice under a high allocation rate is up to 4×: the all-in-one process
 * at 22,000 spans/s grew its heap to 280 MB (90 MB live) and its RSS past 400 MB. At 50%
 * it peaked at 256 MB with the same throughput (bench/README.md, "Round five"). Only the
 * growth step changes; the heap's limit stays V8's, so nothing that fits today runs out.
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/** The heap block: every process has it. */
export function withHeapGrowth<B extends EnvClass>(Base: B) {
  class HeapGrowthEnv extends Base {
    /** 0: V8's own growth. */
    @ToInt() @IsInt() @Min(0) @Max(1000) HEAP_GROWING_PERCENT = DEFAULT_HEAP_GROWING_PERCENT;
  }
  return HeapGrowthEnv;
}

/** Sets V8's heap growing factor (HEAP_GROWING_PERCENT, validated), before the app allocates much; 0 leaves V8's own. */
export function limitHeapGrowth(percent: number, setFlags: (flags: string) => void = setFlagsFromString): void {
  if (percent > 0) setFlags(`--heap-growing-percent=${percent}`);
}
