import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A private CA and one server certificate it signed, for 127.0.0.1 and localhost, made with openssl. */
export interface TestCertificates {
  readonly dir: string;
  /** PEM certificate of the CA: what clients are given to trust. */
  readonly caFile: string;
  /** PEM certificate and unencrypted key of the server. */
  readonly certFile: string;
  readonly keyFile: string;
  /** The same key and certificate as PKCS#12 (a Java keystore: Kafka), under `keystorePassword`. */
  readonly keystoreFile: string;
  readonly keystorePassword: string;
  /** Removes every file. */
  remove(): void;
}

/** Makes a CA and a server certificate in a fresh temp dir (a second or two). */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'cinetrace-certs-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const keystorePassword = randomBytes(12).toString('hex');
  try {
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2', '-subj', '/CN=cinetrace test CA');
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=localhost');
    writeFileSync(
      file('server.ext'),
      'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\n',
    );
    openssl(
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('server.pem'),
      '-days',
      '2',
      '-extfile',
      file('server.ext'),
    );
    openssl('pkcs12', '-export', '-in', file('server.pem'), '-inkey', file('server.key'), '-out', file('server.p12'), '-name', 'server', '-passout', `pass:${keystorePassword}`);
    chmodSync(file('server.key'), 0o600);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const e = error as { stderr?: Buffer; message: string };
    throw new Error(`openssl could not make the test certificates: ${e.stderr?.toString() || e.message}`);
  }
  return {
    dir,
    caFile: file('ca.pem'),
    certFile: file('server.pem'),
    keyFile: file('server.key'),
    keystoreFile: file('server.p12'),
    keystorePassword,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
