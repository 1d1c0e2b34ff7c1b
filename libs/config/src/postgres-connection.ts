import type { ConnectionOptions } from 'node:tls';
import { EnvironmentError } from './environment-error';
import { ReadFile, readFromDisk, readSettingFile } from './setting-file';

/** What node-postgres is given: the URL without its TLS parameters, and TLS set explicitly. */
export interface PostgresConnectionSettings {
  url: string;
  ssl: false | ConnectionOptions;
}

const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
/** Parameters of the URL that node-postgres would read into its own TLS settings (they would override ours). */
const TLS_PARAMETERS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'uselibpqcompat'];

/**
 * DATABASE_URL's `sslmode` as libpq reads it, made explicit for node-postgres. pg-connection-string
 * 2.x (pg 8.x) treats `prefer`, `require` and `verify-ca` as `verify-full` unless the URL says
 * `uselibpqcompat=true`, so a URL that works with psql would fail here; we decide instead:
 *
 * - none, `disable`, `allow`: no TLS (libpq's default, `prefer`, falls back to plaintext; node-postgres cannot, so
 *   without a mode we keep plaintext, as before);
 * - `prefer`, `require`: encrypted, the server's certificate not checked (with a CA file, `require`
 *   checks the chain, as libpq does when a root certificate exists);
 * - `verify-ca`: the chain is checked against DATABASE_SSL_CA_FILE (required), not the host name;
 * - `verify-full`: chain and host name, against DATABASE_SSL_CA_FILE or else Node's public CAs.
 *
 * `prefer` never falls back to plaintext here. `sslrootcert`, `sslcert` and `sslkey` of the URL are
 * honoured as libpq does (DATABASE_SSL_CA_FILE wins over `sslrootcert`).
 */
export function postgresConnection(databaseUrl: string, caFile?: string, read: ReadFile = readFromDisk): PostgresConnectionSettings {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new EnvironmentError(['DATABASE_URL: not a valid URL']);
  }
  const params = url.searchParams;
  const mode = params.get('sslmode') ?? undefined;
  const rootCert = caFile
    ? { variable: 'DATABASE_SSL_CA_FILE', path: caFile }
    : params.get('sslrootcert') && params.get('sslrootcert') !== 'system'
      ? { variable: 'DATABASE_URL (sslrootcert)', path: params.get('sslrootcert')! }
      : undefined;
  const clientCert = params.get('sslcert');
  const clientKey = params.get('sslkey');
  for (const name of TLS_PARAMETERS) params.delete(name);
  const stripped = url.toString();

  if (mode !== undefined && !(SSL_MODES as readonly string[]).includes(mode)) {
    throw new EnvironmentError([`DATABASE_URL: sslmode must be one of ${SSL_MODES.join(', ')}`]);
  }
  if (mode === undefined || mode === 'disable' || mode === 'allow') {
    if (caFile) throw new EnvironmentError([`DATABASE_SSL_CA_FILE: set, but DATABASE_URL's sslmode (${mode ?? 'none'}) uses no TLS; use verify-full`]);
    return { url: stripped, ssl: false };
  }
  if (mode === 'verify-ca' && !rootCert) {
    throw new EnvironmentError(['DATABASE_SSL_CA_FILE: required with sslmode=verify-ca (the CA the server certificate is checked against)']);
  }

  const ssl: ConnectionOptions = {};
  if (clientCert) ssl.cert = readSettingFile('DATABASE_URL (sslcert)', clientCert, read);
  if (clientKey) ssl.key = readSettingFile('DATABASE_URL (sslkey)', clientKey, read);
  const verifyChain = mode === 'verify-ca' || mode === 'verify-full' || (mode === 'require' && rootCert !== undefined);
  if (!verifyChain) return { url: stripped, ssl: { ...ssl, rejectUnauthorized: false } };
  if (rootCert) ssl.ca = readSettingFile(rootCert.variable, rootCert.path, read);
  ssl.rejectUnauthorized = true;
  // verify-ca checks who signed the certificate, not whom it names.
  if (mode !== 'verify-full') ssl.checkServerIdentity = () => undefined;
  return { url: stripped, ssl };
}
