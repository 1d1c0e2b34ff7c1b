import { Script, createContext } from 'node:vm';
import { ScorerError } from './scorer-error';

/**
 * Budget of one synchronous scoring step. A user's regex (or a schema `pattern`) can
 * backtrack for minutes on a long output, and Levenshtein is quadratic: the step is
 * stopped rather than left to block the process.
 */
export const EVALUATION_TIME_LIMIT_MS = 1000;

const noop = (): unknown => undefined;
const sandbox = createContext({ run: noop });
const callRun = new Script('run()');

/** Runs `fn` and stops it after `ms`. vm's watchdog interrupts any JavaScript, regex matching included. */
export function withinTimeLimit<T>(fn: () => T, ms = EVALUATION_TIME_LIMIT_MS): T {
  sandbox.run = fn;
  try {
    return callRun.runInContext(sandbox, { timeout: ms }) as T;
  } catch (err) {
    if ((err as { code?: unknown })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new ScorerError(`took longer than ${ms} ms and was stopped`);
    }
    throw err;
  } finally {
    sandbox.run = noop;
  }
}
