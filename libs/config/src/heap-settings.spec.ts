import { execFileSync } from 'node:child_process';
import { Env } from './env-class';
import { DEFAULT_HEAP_GROWING_PERCENT, limitHeapGrowth, withHeapGrowth } from './heap-growth';
import { EnvironmentError, validateEnv } from './validate-env';

class HeapEnv extends withHeapGrowth(Env) {}

describe('HEAP_GROWING_PERCENT and limitHeapGrowth', () => {
  const flagsFor = (raw: Record<string, string>) => {
    const flags: string[] = [];
    limitHeapGrowth(validateEnv(HeapEnv, raw).HEAP_GROWING_PERCENT, (f) => flags.push(f));
    return flags;
  };

  it('sets V8 heap growing factor to the default when the variable is unset', () => {
    expect(flagsFor({})).toEqual([`--heap-growing-percent=${DEFAULT_HEAP_GROWING_PERCENT}`]);
  });

  it('takes a whole percent, and leaves V8 its own choice at 0', () => {
    expect(flagsFor({ HEAP_GROWING_PERCENT: '120' })).toEqual(['--heap-growing-percent=120']);
    expect(flagsFor({ HEAP_GROWING_PERCENT: '0' })).toEqual([]);
  });

  // Empty is refused, as for every other number the environment takes.
  it.each(['-5', '1.5', 'fast', '1001', '50 --expose-gc', '99999', ''])('refuses %p, naming the variable', (value) => {
    expect(() => validateEnv(HeapEnv, { HEAP_GROWING_PERCENT: value })).toThrow(EnvironmentError);
    expect(() => validateEnv(HeapEnv, { HEAP_GROWING_PERCENT: value })).toThrow(/HEAP_GROWING_PERCENT: /);
  });

  it("names a flag this Node's V8 has (setFlagsFromString only prints a warning for an unknown one)", () => {
    const v8Options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    const [flag] = flagsFor({ HEAP_GROWING_PERCENT: '50' });
    expect(v8Options).toContain(flag.split('=')[0]);
  });
});
