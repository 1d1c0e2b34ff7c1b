/** A secret's name: what targets and scorers write in `{ "secret": "<name>" }`. Unique per organization. */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;
export const SECRET_NAME_RULE = '1..100 letters, digits, "_", "." or "-"';
/** Model-provider keys and tokens fit many times over; anything larger is not a credential. */
export const SECRET_VALUE_MAX_BYTES = 16 * 1024;
export const SECRET_ALLOWED_HOSTS_MAX = 20;
/** `api.example.com`, or `*.example.com` for any host under it; lowercase, no port. */
export const SECRET_HOST_PATTERN = /^(\*\.)?(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/;

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

/** Whether `host` (a URL's hostname, lowercased) is one `allowedHosts` lets a value go to. */
export function hostAllowed(host: string, allowedHosts: readonly string[]): boolean {
  const name = host.toLowerCase();
  return allowedHosts.some((allowed) => (allowed.startsWith('*.') ? name.endsWith(allowed.slice(1)) && name.length > allowed.length - 1 : name === allowed));
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
