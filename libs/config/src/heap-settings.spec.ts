import { execFileSync } from 'node:child_process';
import { Env } from './env-class';
import { DEFAULT_HEAP_GROWING_PERCENT, tuneHeap, withHeapSettings } from './heap-settings';
import { EnvironmentError, validateEnv } from './validate-env';

class HeapEnv extends withHeapSettings(Env) {}

describe('HEAP_GROWING_PERCENT, HEAP_PRETENURING and tuneHeap', () => {
  const flagsFor = (raw: Record<string, string>) => {
    const flags: string[] = [];
    tuneHeap(validateEnv(HeapEnv, raw), (f) => flags.push(f));
    return flags;
  };

  it("sets V8's heap growing factor to the default, and pretenuring off, when the variables are unset", () => {
    expect(flagsFor({})).toEqual([`--heap-growing-percent=${DEFAULT_HEAP_GROWING_PERCENT}`, '--no-allocation-site-pretenuring']);
  });

  it('takes a whole percent, and leaves V8 its own choice at 0', () => {
    expect(flagsFor({ HEAP_GROWING_PERCENT: '120' })).toEqual(['--heap-growing-percent=120', '--no-allocation-site-pretenuring']);
    expect(flagsFor({ HEAP_GROWING_PERCENT: '0' })).toEqual(['--no-allocation-site-pretenuring']);
  });

  it("leaves V8's pretenuring on only when asked", () => {
    expect(flagsFor({ HEAP_PRETENURING: 'true' })).toEqual([`--heap-growing-percent=${DEFAULT_HEAP_GROWING_PERCENT}`]);
    expect(flagsFor({ HEAP_PRETENURING: 'false', HEAP_GROWING_PERCENT: '0' })).toEqual(['--no-allocation-site-pretenuring']);
  });

  // Empty is refused, as for every other number the environment takes.
  it.each(['-5', '1.5', 'fast', '1001', '50 --expose-gc', '99999', ''])('refuses HEAP_GROWING_PERCENT=%p, naming the variable', (value) => {
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
