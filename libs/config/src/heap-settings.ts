import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { setFlagsFromString } from 'node:v8';
import type { EnvClass } from './env-class';
import { ToBool, ToInt } from './env-types';

/**
 * How far V8 lets the heap grow past what a full GC left live, in percent, before the next
 * full GC. V8's own choice under a high allocation rate is up to 4×: the all-in-one process
 * at 22,000 spans/s grew its heap to 280 MB (90 MB live) and its RSS past 400 MB. At 50%
 * it peaked at 256 MB with the same throughput (bench/README.md, "Round five"). Only the
 * growth step changes; the heap's limit stays V8's, so nothing that fits today runs out.
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/** The heap block: every process has it. */
export function withHeapSettings<B extends EnvClass>(Base: B) {
  class HeapSettingsEnv extends Base {
    /** 0: V8's own growth. */
    @ToInt() @IsInt() @Min(0) @Max(1000) HEAP_GROWING_PERCENT = DEFAULT_HEAP_GROWING_PERCENT;
    /**
     * V8's allocation-site pretenuring, off unless true. Ingest batches keep a request's
     * objects alive across many awaits, so V8 learns to allocate objects of sites the reads
     * share straight into the old generation; every read's garbage is then reachable from
     * old objects until the next full GC, and each scavenge copies and promotes it: ~250 KB
     * and 1.5–1.8 ms a scavenge against ~12 KB and ~0.8 ms without (bench/README.md, "Round nineteen").
     */
    @ToBool() @IsBoolean() HEAP_PRETENURING = false;
  }
  return HeapSettingsEnv;
}

/** What tuneHeap reads of the (validated) environment. */
export interface HeapSettings {
  HEAP_GROWING_PERCENT: number;
  HEAP_PRETENURING: boolean;
}

/**
 * Sets V8's heap growing factor and pretenuring as the environment says (validated), before
 * the app allocates much. A growing percent of 0 leaves V8's own.
 */
export function tuneHeap(settings: HeapSettings, setFlags: (flags: string) => void = setFlagsFromString): void {
  if (settings.HEAP_GROWING_PERCENT > 0) setFlags(`--heap-growing-percent=${settings.HEAP_GROWING_PERCENT}`);
  if (!settings.HEAP_PRETENURING) setFlags('--no-allocation-site-pretenuring');
}
