import { emptyEnvironment, type GivenEnvironment } from './env-check';
import { COMPOSE_RESET } from './yaml-files';

/* eslint-disable @typescript-eslint/no-explicit-any -- the compose file is untyped YAML */

export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string; args?: Record<string, unknown> | string[] };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, unknown> | string[];
  env_file?: string | Array<string | { path: string; required?: boolean }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  depends_on?: string[] | Record<string, { condition?: string; required?: boolean }>;
  ports?: unknown[];
  container_name?: string;
  init?: boolean;
  stop_grace_period?: string;
  [key: string]: any;
}

export interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
  [key: string]: any;
}

/**
 * A value after compose interpolation, when it can be known without the caller's
 * environment: `${X:-default}` and `${X-default}` give their default, `$$` is a `$`;
 * undefined when a part depends on the environment (`${X}`, `${X:?message}`).
 */
export function interpolated(value: string): string | undefined {
  let unknown = false;
  const result = value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match: string, _name: string | undefined, op: string | undefined, arg: string | undefined) => {
      if (match === '$$') return '$';
      if (op === ':-' || op === '-') return arg!; // with an operator, the default's group always matches
      unknown = true;
      return match;
    },
  );
  return unknown ? undefined : result;
}

/** Compose's two spellings of `environment` (map, or `NAME=value` list), and its env_file entries. */
export function serviceEnvironment(service: ComposeService): GivenEnvironment {
  const given = emptyEnvironment();
  const add = (name: string, raw: unknown) => {
    if (given.variables.has(name)) given.problems.push(`${name} is given twice`);
    if (raw === null || raw === undefined) {
      // `NAME:` / `- NAME`: passed through from the environment of `docker compose`.
      given.variables.set(name, { name, source: 'the environment of docker compose' });
    } else {
      given.variables.set(name, { name, source: 'environment', value: interpolated(String(raw)) });
    }
  };
  const env = service.environment;
  if (Array.isArray(env)) {
    for (const item of env) {
      const text = String(item);
      const eq = text.indexOf('=');
      if (eq === -1) add(text, null);
      else add(text.slice(0, eq), text.slice(eq + 1));
    }
  } else if (env) {
    for (const [name, raw] of Object.entries(env)) add(name, raw);
  }
  const files = service.env_file === undefined ? [] : Array.isArray(service.env_file) ? service.env_file : [service.env_file];
  for (const file of files) {
    const entry = typeof file === 'string' ? { path: file, required: true } : file;
    given.opaque.push({ source: `env_file ${entry.path}`, optional: entry.required === false });
  }
  return given;
}

/** `build.args` as a map. */
export function buildArgs(service: ComposeService): Record<string, string> {
  if (!service.build || typeof service.build === 'string' || !service.build.args) return {};
  const args = service.build.args;
  if (Array.isArray(args)) {
    return Object.fromEntries(args.map((a) => String(a).split(/=(.*)/s).slice(0, 2) as [string, string]));
  }
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)]));
}

/** `depends_on` as name → condition (`service_started` for the short list form). */
export function dependencies(service: ComposeService): Record<string, string> {
  const deps = service.depends_on;
  if (!deps) return {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(deps).map(([name, d]) => [name, d?.condition ?? 'service_started']));
}

/** The URL a healthcheck fetches (`http://127.0.0.1:8081/readyz` → port and path), if it fetches one. */
export function healthcheckUrl(service: ComposeService): { port: number; path: string } | undefined {
  const test = service.healthcheck?.test;
  const text = Array.isArray(test) ? test.join(' ') : (test ?? '');
  const match = /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)(\/[^\s'"`)]*)/.exec(text);
  return match ? { port: Number(match[1]), path: match[2] } : undefined;
}

/** Compose durations (`20s`, `1m30s`, `500ms`) in milliseconds. */
export function durationMs(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const parts = [...String(value).matchAll(/(\d+(?:\.\d+)?)(ms|us|ns|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== String(value)) return undefined;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 1e-3, ns: 1e-6 };
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2]], 0);
}

/** Attributes an override replaces rather than appends to (compose's merge rules). */
const REPLACED = new Set(['command', 'entrypoint', 'test']);

/**
 * `docker compose -f base -f override`, as far as these checks need: mappings merge key by
 * key, sequences append (without duplicates), `command`, `entrypoint` and `healthcheck.test`
 * are replaced, and `!reset` removes the key.
 */
export function mergeCompose<T>(base: T, override: unknown): T {
  return mergeValue(base, override) as T;
}

function mergeValue(base: unknown, override: unknown, key = ''): unknown {
  const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isMap(base) && isMap(override)) {
    const merged: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(override)) {
      if (v === COMPOSE_RESET) delete merged[k];
      else merged[k] = k in base ? mergeValue(base[k], v, k) : v;
    }
    return merged;
  }
  if (Array.isArray(base) && Array.isArray(override) && !REPLACED.has(key)) {
    const seen = new Set(base.map((v) => JSON.stringify(v)));
    return [...(base as unknown[]), ...(override as unknown[]).filter((v) => !seen.has(JSON.stringify(v)))];
  }
  return override;
}

/** The compose secrets a service mounts (short `- name` or long `- source: name` form). */
export function mountedSecrets(service: ComposeService): string[] {
  return ((service.secrets ?? []) as Array<string | { source: string; target?: string }>).map((s) => (typeof s === 'string' ? s : s.source));
}
