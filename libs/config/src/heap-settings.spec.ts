import { execFileSync } from 'node:child_process';
import { Env } from './env-class';
import { HEAP_GROWING_PERCENT_BY_MODE, tuneHeap, withHeapSettings } from './heap-settings';
import type { RunMode } from './run-mode';
import { EnvironmentError, validateEnv } from './validate-env';

class HeapEnv extends withHeapSettings(Env) {}

describe('HEAP_GROWING_PERCENT, HEAP_PRETENURING and tuneHeap', () => {
  const flagsFor = (raw: Record<string, string>, mode: RunMode = 'all-in-one') => {
    const flags: string[] = [];
    tuneHeap(validateEnv(HeapEnv, raw), mode, (f) => flags.push(f));
    return flags;
  };

  it("sets V8's heap growing factor to 50% all-in-one, and pretenuring off, when the variables are unset", () => {
    expect(HEAP_GROWING_PERCENT_BY_MODE['all-in-one']).toBe(50);
    expect(flagsFor({})).toEqual(['--heap-growing-percent=50', '--no-allocation-site-pretenuring']);
  });

  it("leaves a distributed app's heap growth to V8 when the variable is unset, and sets what it says when set", () => {
    expect(flagsFor({}, 'distributed')).toEqual(['--no-allocation-site-pretenuring']);
    expect(flagsFor({ HEAP_GROWING_PERCENT: '50' }, 'distributed')).toEqual(['--heap-growing-percent=50', '--no-allocation-site-pretenuring']);
  });

  it('takes a whole percent, and leaves V8 its own choice at 0', () => {
    expect(flagsFor({ HEAP_GROWING_PERCENT: '120' })).toEqual(['--heap-growing-percent=120', '--no-allocation-site-pretenuring']);
    expect(flagsFor({ HEAP_GROWING_PERCENT: '0' })).toEqual(['--no-allocation-site-pretenuring']);
  });

  it("leaves V8's pretenuring on only when asked", () => {
    expect(flagsFor({ HEAP_PRETENURING: 'true' })).toEqual(['--heap-growing-percent=50']);
    expect(flagsFor({ HEAP_PRETENURING: 'false', HEAP_GROWING_PERCENT: '0' })).toEqual(['--no-allocation-site-pretenuring']);
  });

  it("reads an empty value as unset (the run mode's growth), as the other optional numbers", () => {
    expect(flagsFor({ HEAP_GROWING_PERCENT: '' }, 'distributed')).toEqual(['--no-allocation-site-pretenuring']);
    expect(flagsFor({ HEAP_GROWING_PERCENT: '' }, 'all-in-one')).toEqual(['--heap-growing-percent=50', '--no-allocation-site-pretenuring']);
  });

  it.each(['-5', '1.5', 'fast', '1001', '50 --expose-gc', '99999'])('refuses HEAP_GROWING_PERCENT=%p, naming the variable', (value) => {
    expect(() => validateEnv(HeapEnv, { HEAP_GROWING_PERCENT: value })).toThrow(EnvironmentError);
    expect(() => validateEnv(HeapEnv, { HEAP_GROWING_PERCENT: value })).toThrow(/HEAP_GROWING_PERCENT: /);
  });

  it.each(['yes', '1', 'TRUE', 'true --expose-gc'])('refuses HEAP_PRETENURING=%p, naming the variable', (value) => {
    expect(() => validateEnv(HeapEnv, { HEAP_PRETENURING: value })).toThrow(/HEAP_PRETENURING: /);
  });

  it("names flags this Node's V8 has (setFlagsFromString only prints a warning for an unknown one)", () => {
    const v8Options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    const flags = flagsFor({ HEAP_GROWING_PERCENT: '50' });
    expect(flags).toHaveLength(2);
    // --v8-options lists a negated flag by its positive name.
    for (const flag of flags) expect(v8Options).toContain(flag.split('=')[0].replace(/^--no-/, '--'));
  });
});
