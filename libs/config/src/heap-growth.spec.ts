import { execFileSync } from 'node:child_process';
import { DEFAULT_HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap-growth';
import { EnvironmentError } from './environment-error';

describe('limitHeapGrowth', () => {
  const run = (value: string | undefined) => {
    const flags: string[] = [];
    const percent = limitHeapGrowth(value === undefined ? {} : { HEAP_GROWING_PERCENT: value }, (f) => flags.push(f));
    return { percent, flags };
  };

  it('sets V8 heap growing factor to the default when the variable is unset or empty', () => {
    expect(run(undefined)).toEqual({ percent: DEFAULT_HEAP_GROWING_PERCENT, flags: [`--heap-growing-percent=${DEFAULT_HEAP_GROWING_PERCENT}`] });
    expect(run(' ')).toEqual({ percent: DEFAULT_HEAP_GROWING_PERCENT, flags: [`--heap-growing-percent=${DEFAULT_HEAP_GROWING_PERCENT}`] });
  });

  it('takes a whole percent, and leaves V8 its own choice at 0', () => {
    expect(run('120')).toEqual({ percent: 120, flags: ['--heap-growing-percent=120'] });
    expect(run('0')).toEqual({ percent: undefined, flags: [] });
  });

  it.each(['-5', '1.5', 'fast', '1001', '50 --expose-gc', '99999'])('refuses %p, naming the variable, and sets nothing', (value) => {
    const flags: string[] = [];
    expect(() => limitHeapGrowth({ HEAP_GROWING_PERCENT: value }, (f) => flags.push(f))).toThrow(EnvironmentError);
    expect(() => limitHeapGrowth({ HEAP_GROWING_PERCENT: value }, () => undefined)).toThrow(/HEAP_GROWING_PERCENT must be a whole number/);
    expect(flags).toEqual([]);
  });

  it("names a flag this Node's V8 has (setFlagsFromString only prints a warning for an unknown one)", () => {
    const v8Options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    const [flag] = run('50').flags;
    expect(v8Options).toContain(flag.split('=')[0]);
  });
});
