import { expect } from '@jest/globals';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { ToInt } from './env-types';
import { EnvironmentError, requireVariables, validateEnv } from './validate-env';

class ExampleEnv {
  @ToInt() @IsInt() @Min(1) @Max(65535) PORT = 3000;
  @IsOptional() @Matches(/^postgres:\/\//, { message: 'must be a postgres:// URL' }) DATABASE_URL?: string;
}

describe('validateEnv', () => {
  it('applies defaults and converts types', () => {
    expect(validateEnv(ExampleEnv, {})).toMatchObject({ PORT: 3000 });
    expect(validateEnv(ExampleEnv, { PORT: '8080' }).PORT).toBe(8080);
  });

  it('names each wrong variable, without its value', () => {
    let error: EnvironmentError | undefined;
    try {
      validateEnv(ExampleEnv, { PORT: 'abc', DATABASE_URL: 'mysql://user:secret@db' });
    } catch (err) {
      error = err as EnvironmentError;
    }
    expect(error?.problems).toEqual([expect.stringMatching(/^PORT: .*must be an integer number/), 'DATABASE_URL: must be a postgres:// URL']);
    expect(error?.message).not.toContain('secret');
  });
});

describe('requireVariables', () => {
  it('names every missing or empty variable', () => {
    expect(() => requireVariables(['A', 'B', 'C'], 'here', { A: 'x', B: ' ' })).toThrow('Invalid environment:\n  - B: required here\n  - C: required here');
  });
});
