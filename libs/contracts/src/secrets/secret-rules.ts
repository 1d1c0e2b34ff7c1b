/** A secret's name: what targets and scorers write in `{ "secret": "<name>" }`. Unique per organization. */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;
export const SECRET_NAME_RULE = '1..100 letters, digits, "_", "." or "-"';
/** Model-provider keys and tokens fit many times over; anything larger is not a credential. */
export const SECRET_VALUE_MAX_BYTES = 16 * 1024;
export const SECRET_ALLOWED_HOSTS_MAX = 20;
const HOST_NAME = String.raw`(?:\*\.)?(?=[^:/]{1,253}(?::|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*`;
const IPV6_LITERAL = String.raw`\[[0-9a-f:.]+\]`;
const PORT = String.raw`(?:6553[0-5]|655[0-2]\d|65[0-4]\d{2}|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3})`;
/** One `allowedHosts` entry, unanchored (OUTBOUND_ENV_SECRETS embeds it): an optional scheme, a host, an optional port. */
export const SECRET_HOST_ENTRY_SOURCE = `(?:https?://)?(?:${HOST_NAME}|${IPV6_LITERAL})(?::${PORT})?`;
/**
 * `api.example.com` (https on 443), `*.example.com` (any host under it), or with the scheme and
 * port spelled out: `https://api.example.com:8443`, `http://localhost:8080`. Lowercase, no path.
 */
export const SECRET_HOST_PATTERN = new RegExp(`^${SECRET_HOST_ENTRY_SOURCE}$`);

/** How a benchmark names a credential: never the value, never an environment variable. */
export interface SecretReference {
  secret: string;
}

/** Whether `value` is exactly `{ secret: "<valid name>" }`. */
export function isSecretReference(value: unknown): value is SecretReference {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'secret' && typeof (value as SecretReference).secret === 'string' && SECRET_NAME_PATTERN.test((value as SecretReference).secret);
}

/**
 * Request headers that carry credentials: a benchmark may send them only from a secret
 * (`{ "secret": "<name>" }`), never as a plain string anyone who can read it sees.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'api-key',
  'apikey',
  'x-auth-token',
  'x-access-token',
  'x-goog-api-key',
  'ocp-apim-subscription-key',
  'x-amz-security-token',
  'private-token',
]);

/**
 * Where a value would go, as `allowedHosts` entries are compared: scheme, lowercase host and
 * port, the port always spelled out (`https://api.example.com:443`). Undefined for anything
 * but an http or https URL.
 */
export function secretOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return `${parsed.protocol}//${parsed.hostname.toLowerCase()}:${parsed.port || (parsed.protocol === 'https:' ? '443' : '80')}`;
}

/**
 * Whether `origin` (as secretOrigin spells it) is one `allowedHosts` lets a value go to. An
 * entry binds scheme and port too: a bare host means https on 443, so a value bound to
 * `api.example.com` never goes to `http://api.example.com/` or to port 8443. Plain http needs
 * an entry saying `http://` and `allowPlainHttp` (the operator's local-development setting);
 * with no entries at all, any https origin, and http only under that setting.
 */
export function originAllowed(origin: string, allowedHosts: readonly string[], options: { allowPlainHttp: boolean }): boolean {
  const target = /^(https?):\/\/(.+):(\d+)$/.exec(origin);
  if (!target) return false;
  const [, scheme, host, port] = target;
  if (scheme === 'http' && !options.allowPlainHttp) return false;
  if (allowedHosts.length === 0) return true;
  return allowedHosts.some((raw) => {
    const entry = allowedEntry(raw);
    return entry.scheme === scheme && entry.port === port && hostMatches(host, entry.host);
  });
}

/** An `allowedHosts` entry with its defaults filled in: https, and the scheme's port. */
function allowedEntry(raw: string): { scheme: string; host: string; port: string } {
  const [, scheme = 'https', host, port] = /^(?:(https?):\/\/)?(.+?)(?::(\d+))?$/.exec(raw.toLowerCase()) ?? [];
  return { scheme, host: host ?? '', port: port ?? (scheme === 'http' ? '80' : '443') };
}

function hostMatches(host: string, allowed: string): boolean {
  return allowed.startsWith('*.') ? host.endsWith(allowed.slice(1)) && host.length > allowed.length - 1 : host === allowed;
}

export const SECRET_REFERENCE_MESSAGE = `must be a reference to a secret of the organization: { "secret": "<name>" }, the name ${SECRET_NAME_RULE}`;

/** Fields that once named a server environment variable: no request may name one (API.md, "Benchmarks"). */
export const ENV_NAMING_FIELDS: readonly string[] = ['apiKeyEnv'];
export const ENV_NAMING_MESSAGE = 'names a server environment variable, which no request may do: store the credential as a secret and send apiKey: { "secret": "<name>" }';

// RFC 9110 token: what fetch accepts as a header name.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/**
 * What is wrong with one request header of an http target or scorer, or undefined. A header
 * that carries a credential (CREDENTIAL_HEADERS) must come from a secret; any other may be a
 * plain string or a secret too.
 */
export function headerValueProblem(name: string, value: unknown): string | undefined {
  if (!HEADER_NAME.test(name)) return 'is not a valid header name';
  if (isSecretReference(value)) return undefined;
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, 'secret')) return SECRET_REFERENCE_MESSAGE;
  if (CREDENTIAL_HEADERS.has(name.toLowerCase())) {
    return 'carries a credential, which must not be written in a benchmark: store it as a secret and send { "secret": "<name>" }';
  }
  if (typeof value !== 'string' || value.length > 4096 || /[\r\n]/.test(value)) {
    return 'must be a string of at most 4096 characters on one line, or { "secret": "<name>" }';
  }
  return undefined;
}
