import { CONNECTION_SECURITY_VARIABLES, SECRET_VARIABLES } from '@cinetrace/config';

/** One variable a container or compose service is given, and where it comes from. */
export interface GivenVariable {
  name: string;
  /** e.g. `value`, `ConfigMap gateway-config`, `Secret cinetrace-secrets/DATABASE_URL`. */
  source: string;
  /** The literal value, when the manifests say it (literal or ConfigMap); undefined for secrets. */
  value?: string;
}

/** A source that gives variables whose names cannot be listed here (a Secret through envFrom, an env_file). */
export interface OpaqueSource {
  source: string;
  optional: boolean;
}

export interface GivenEnvironment {
  variables: Map<string, GivenVariable>;
  opaque: OpaqueSource[];
  /** Broken references (a ConfigMap key that does not exist, a variable given twice, …). */
  problems: string[];
}

export const emptyEnvironment = (): GivenEnvironment => ({ variables: new Map(), opaque: [], problems: [] });

export interface EnvironmentExpectation {
  /** Variables that must be given. */
  mustSet: Iterable<string>;
  /** Variables the process reads: anything else given is a mistake (a typo, or a variable meant for another app). */
  mayRead: Set<string>;
  /**
   * Whether the process may also be given variables that cannot be listed in advance.
   * ALLOWANCE: only processes that look variables up by names chosen at run time (the
   * project-service, reading the model keys OUTBOUND_ENV_SECRETS lists) may, and only from an
   * OPTIONAL source (a Secret with `optional: true`, an env_file with `required: false`),
   * so that the app still starts when nobody has configured model keys.
   */
  mayTakeOpaque: boolean;
}

const secretVariables = new Set<string>(SECRET_VARIABLES);
const unsetMeansOff = new Set<string>(CONNECTION_SECURITY_VARIABLES);

/** Everything wrong with what `where` is given, compared with what the code reads; empty when it matches. */
export function environmentProblems(where: string, given: GivenEnvironment, expected: EnvironmentExpectation): string[] {
  const problems = given.problems.map((p) => `${where}: ${p}`);
  // A secret may come as <NAME>_FILE instead (a mounted Secret), never both (the app refuses to start).
  const fileOf = (name: string) => (secretVariables.has(name) ? `${name}_FILE` : undefined);
  const mayRead = new Set([...expected.mayRead, ...[...expected.mayRead].flatMap((name) => fileOf(name) ?? [])]);
  for (const name of expected.mustSet) {
    const file = fileOf(name);
    if (file && given.variables.has(name) && given.variables.has(file)) problems.push(`${where}: ${name} and ${file} are both set; the app refuses that`);
    if (unsetMeansOff.has(name)) continue;
    if (!given.variables.has(name) && !(file && given.variables.has(file))) problems.push(`${where}: ${name} is read by the app but not set`);
  }
  for (const variable of given.variables.values()) {
    if (!mayRead.has(variable.name)) {
      problems.push(`${where}: ${variable.name} (from ${variable.source}) is given but the app does not read it`);
    }
  }
  for (const opaque of given.opaque) {
    if (!expected.mayTakeOpaque) {
      problems.push(`${where}: ${opaque.source} gives variables that cannot be checked, and the app reads none by run-time name`);
    } else if (!opaque.optional) {
      problems.push(`${where}: ${opaque.source} must be optional (the app starts without model keys)`);
    }
  }
  return problems;
}

/** A port number from a variable's value, or undefined. */
export function portOf(variable: GivenVariable | undefined): number | undefined {
  if (!variable?.value || !/^\d+$/.test(variable.value)) return undefined;
  return Number(variable.value);
}
