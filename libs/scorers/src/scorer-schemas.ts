import { schemaProblem } from './json-schema';
import { ScorerError } from './scorer-error';
import { withinTimeLimit } from './time-limit';
import type { ScorerFieldError, ScorerSpec } from './scorer.types';

/** Where schemas are compiled at create: ScoringThreads, off the event loop. */
export interface SchemaCompiler {
  schemaProblem(schema: object): Promise<string | null>;
}

/** SchemaCompiler on this thread, bounded by vm's watchdog: for tests and tools, never a service's event loop. */
export const compileInThisThread: SchemaCompiler = {
  schemaProblem: async (schema) => withinTimeLimit(() => schemaProblem(schema)),
};

/**
 * The `json_schema` scorers whose schema does not compile (not valid, a pattern the linear
 * engine refuses, or too slow to compile), each named by its field. validateScorers checked
 * their size and depth already; compiling is the part that may take long.
 */
export async function scorerSchemaErrors(scorers: ScorerSpec[], compiler: SchemaCompiler, path = 'scorers'): Promise<ScorerFieldError[]> {
  const checks = scorers.map(async (scorer, i): Promise<ScorerFieldError | undefined> => {
    if (scorer.type !== 'json_schema') return undefined;
    const at = `${path}[${i}].config.schema`;
    try {
      const problem = await compiler.schemaProblem(scorer.config.schema);
      return problem ? { path: at, message: problem } : undefined;
    } catch (err) {
      // The time limit (a ScorerError): the schema's fault. Anything else (no thread) is ours, and not a 400.
      if (err instanceof ScorerError) return { path: at, message: `could not be compiled: it ${err.message}` };
      throw err;
    }
  });
  return (await Promise.all(checks)).filter((e): e is ScorerFieldError => e !== undefined);
}
