import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { setFlagsFromString } from 'node:v8';
import type { EnvClass } from './env-class';
import { ToBool, ToInt } from './env-types';
import type { RunMode } from './run-mode';

/**
 * How far V8 lets the heap grow past what a full GC left live, in percent, before the next
 * full GC, when HEAP_GROWING_PERCENT is unset (0: V8's own, between 1.1× and 4× as it sees
 * the GC keep up).
 * - all-in-one: 50. Every app shares one heap under an RSS budget, and V8's own step under a
 *   high allocation rate took the process past it while ingesting.
 * - distributed: V8's own. Each app has a heap of its own, and a fixed step gave reads a
 *   longer tail (more frequent full GCs, likely).
 * Only the growth step changes; the heap's limit stays V8's, so nothing that fits today runs out.
 */
export const HEAP_GROWING_PERCENT_BY_MODE: Readonly<Record<RunMode, number>> = { 'all-in-one': 50, distributed: 0 };

/** The heap block: every process has it. */
export function withHeapSettings<B extends EnvClass>(Base: B) {
  class HeapSettingsEnv extends Base {
    /**
     * How far V8 lets the heap grow past what its last full GC left live, in percent, before the next one.
     * Unset: 50 in all-in-one (one heap under an RSS budget), V8's own in the distributed apps; 0: V8's own.
     */
    @IsOptional() @ToInt() @IsInt() @Min(0) @Max(1000) HEAP_GROWING_PERCENT?: number;
    /**
     * `true` turns V8's allocation-site pretenuring back on. Off, objects are born young: ingest
     * batches keep objects alive across many awaits, so V8 learns to allocate the reads' shared
     * objects in the old generation, and every scavenge then copies and promotes each read's garbage.
     */
    @ToBool() @IsBoolean() HEAP_PRETENURING = false;
  }
  return HeapSettingsEnv;
}

/** What tuneHeap reads of the (validated) environment. */
export interface HeapSettings {
  HEAP_GROWING_PERCENT?: number;
  HEAP_PRETENURING: boolean;
}

/**
 * Sets V8's heap growing factor and pretenuring as the environment says (validated), or
 * as the run mode's default, before the app allocates much. A growing percent of 0 leaves V8's own.
 */
export function tuneHeap(settings: HeapSettings, mode: RunMode, setFlags: (flags: string) => void = setFlagsFromString): void {
  const growingPercent = settings.HEAP_GROWING_PERCENT ?? HEAP_GROWING_PERCENT_BY_MODE[mode];
  if (growingPercent > 0) setFlags(`--heap-growing-percent=${growingPercent}`);
  if (!settings.HEAP_PRETENURING) setFlags('--no-allocation-site-pretenuring');
}
