import { schemaProblem } from './json-schema';
import { ScorerError } from './scorer-error';
import { withinTimeLimit } from './time-limit';
import type { ScorerFieldError } from './scorer.types';

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
 * engine refuses, or too slow to compile), each named by its field. Takes the scorers as
 * the client sent them, so that these errors join validateScorers' in one answer even when
 * other scorers are wrong; a schema validateScorers refused already (`errors`: too big, too
 * deep, not an object) is not compiled.
 */
export async function scorerSchemaErrors(raw: unknown, compiler: SchemaCompiler, errors: readonly ScorerFieldError[], path = 'scorers'): Promise<ScorerFieldError[]> {
  if (!Array.isArray(raw)) return [];
  const refused = new Set(errors.map((e) => e.path));
  const checks = raw.map(async (scorer: unknown, i): Promise<ScorerFieldError | undefined> => {
    const at = `${path}[${i}].config.schema`;
    const schema = jsonSchemaOf(scorer);
    if (schema === undefined || refused.has(at)) return undefined;
    try {
      const problem = await compiler.schemaProblem(schema);
      return problem ? { path: at, message: problem } : undefined;
    } catch (err) {
      // The time limit (a ScorerError): the schema's fault. Anything else (no thread) is ours, and not a 400.
      if (err instanceof ScorerError) return { path: at, message: `could not be compiled: it ${err.message}` };
      throw err;
    }
  });
  return (await Promise.all(checks)).filter((e): e is ScorerFieldError => e !== undefined);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The schema of a `json_schema` scorer as sent, when it is an object. */
function jsonSchemaOf(scorer: unknown): object | undefined {
  if (!isPlainObject(scorer) || scorer.type !== 'json_schema' || !isPlainObject(scorer.config)) return undefined;
  return isPlainObject(scorer.config.schema) ? scorer.config.schema : undefined;
}
