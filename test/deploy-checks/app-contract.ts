import { getMetadataStorage } from 'class-validator';
import { exists, filesUnder, readText, rootPath } from './repo';

/** What an app reads from its environment, as its code says (never a hand-written list). */
export interface AppContract {
  app: string;
  /** `apps/<app>/src/<name>.env.ts`: the class validated at boot. */
  envFile: string;
  /** Properties of the env class(es): every one is validated (with its default) at boot. */
  validated: string[];
  /** Names passed to `requireVariables([...])` in `src/main.ts` (required in the distributed mode). */
  required: string[];
  /** validated ∪ required. */
  reads: Set<string>;
  /**
   * The app hands the whole `process.env` to a component that looks variables up by names
   * known only at run time (project-service: the model keys OUTBOUND_ENV_SECRETS lists). Only such an app
   * may be given variables nobody can list in advance (an optional Secret via envFrom).
   */
  readsNamedAtRuntime: boolean;
  /** `src/migrate.ts` exists: `node apps/<app>/dist/migrate.js` migrates the app's schema and exits. */
  migrateEntry?: string;
  /** Names passed to `requireVariables([...])` in `src/migrate.ts`. */
  migrateRequired: string[];
}

/** Source lines without whole-line comments (`//`, and the ` * ` lines of block comments). */
export function codeLines(source: string): string {
  return source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
}

/**
 * The names of every `requireVariables([...], …)` call of `source`. A call whose first
 * argument is not a literal array cannot be read, so it throws instead of being missed.
 */
export function requiredVariablesIn(source: string, file = 'source'): string[] {
  const code = codeLines(source);
  const calls = code.match(/\brequireVariables\s*\(/g)?.length ?? 0;
  const literal = [...code.matchAll(/\brequireVariables\s*\(\s*\[([^\]]*)\]/g)];
  if (literal.length !== calls) {
    throw new Error(`${file}: ${calls - literal.length} requireVariables call(s) without a literal array of names; the checks cannot read them`);
  }
  return [...new Set(literal.flatMap((m) => [...m[1].matchAll(/['"`]([A-Z0-9_]+)['"`]/g)].map((n) => n[1])))];
}

/** The properties of a class-validator class: those with validation metadata, and those with an initializer. */
export function validatedProperties(envClass: new () => object): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(envClass, '', true, false);
  const names = new Set(metadata.map((m) => m.propertyName));
  for (const key of Object.keys(new envClass())) names.add(key);
  return [...names].sort();
}

/** `process.env` used whole (not `process.env.NAME` / `process.env[...]`) in code, not comments. */
export function handsOnWholeEnvironment(source: string): boolean {
  return /\bprocess\.env(?![\w.[])/.test(codeLines(source));
}

const contracts = new Map<string, AppContract>();

/** Every deployed app's contract, by app name. */
export type Contracts = Map<string, AppContract>;

/** Reads the app's env class(es) and main.ts. Meant for jest (it requires the TypeScript sources). */
export function appContract(app: string): AppContract {
  const cached = contracts.get(app);
  if (cached) return cached;
  const envFiles = filesUnder(`apps/${app}/src`, /\.env\.ts$/).filter((f) => f === `apps/${app}/src/${f.split('/').pop()}`);
  if (envFiles.length !== 1) {
    throw new Error(`apps/${app}/src should hold exactly one <name>.env.ts with the class validated at boot; found ${envFiles.length}`);
  }
  const envFile = envFiles[0];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require(rootPath(envFile)) as Record<string, unknown>;
  const classes = Object.values(exported).filter((value): value is new () => object => typeof value === 'function');
  const validated = [...new Set(classes.flatMap(validatedProperties))].sort();
  if (validated.length === 0) throw new Error(`${envFile} exports no class with validated properties`);

  const required = requiredVariablesIn(readText(`apps/${app}/src/main.ts`), `apps/${app}/src/main.ts`);
  const migrateEntry = exists(`apps/${app}/src/migrate.ts`) ? `apps/${app}/src/migrate.ts` : undefined;
  const migrateRequired = migrateEntry ? requiredVariablesIn(readText(migrateEntry), migrateEntry) : [];
  const sources = filesUnder(`apps/${app}/src`, /\.ts$/).filter((f) => !f.endsWith('.spec.ts'));
  const contract: AppContract = {
    app,
    envFile,
    validated,
    required,
    reads: new Set([...validated, ...required, ...migrateRequired]),
    readsNamedAtRuntime: sources.some((file) => handsOnWholeEnvironment(readText(file))),
    migrateEntry,
    migrateRequired,
  };
  contracts.set(app, contract);
  return contract;
}

/** The paths of libs/health's probes: liveness, and readiness (which checks the app's dependencies). */
export const LIVENESS_PATH = '/healthz';
export const READINESS_PATH = '/readyz';

/** The port an app's probes answer on: HEALTH_PORT when it reads one, else its HTTP PORT (the gateway). */
export function probePortVariable(contract: AppContract): 'HEALTH_PORT' | 'PORT' | undefined {
  if (contract.reads.has('HEALTH_PORT')) return 'HEALTH_PORT';
  if (contract.reads.has('PORT')) return 'PORT';
  return undefined;
}

/** Apps with their own schema: they read DATABASE_URL. */
export const hasDatabase = (contract: AppContract): boolean => contract.reads.has('DATABASE_URL');
