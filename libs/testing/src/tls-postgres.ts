import { execFile } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import type { TestCertificates } from './test-certificates';

const run = promisify(execFile);

/** A PostgreSQL cluster of a test's own that takes TLS connections only (hostssl), from the machine's binaries. */
export interface TlsPostgres {
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres?sslmode=<mode>`. */
  url(sslmode: string): string;
  /** Stops the cluster (immediate) and removes its directory. */
  stop(): Promise<void>;
}

/** The newest /usr/lib/postgresql/<version>/bin. */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error(`no PostgreSQL server under ${root}`);
  return join(root, versions[0], 'bin');
}

/**
 * initdb and pg_ctl run as the postgres user (they refuse root): through runuser when the
 * test runs as root, directly otherwise.
 */
async function asPostgres(command: string, args: string[]): Promise<void> {
  const asRoot = userInfo().uid === 0;
  try {
    if (asRoot) await run('runuser', ['-u', 'postgres', '--', command, ...args], { timeout: 60_000 });
    else await run(command, args, { timeout: 60_000 });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${command} failed: ${e.stderr || e.stdout || e.message}`);
  }
}

/**
 * Starts a cluster on `port` (default a free one) with ssl=on and the server certificate of
 * `certs`; pg_hba takes only `hostssl` connections from 127.0.0.1 (trust), so a plaintext
 * client is refused and any TLS client is let in: what the test checks is the certificate.
 */
export async function startTlsPostgres(certs: TestCertificates, port?: number): Promise<TlsPostgres> {
  const bin = postgresBin();
  const pinned = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'cinetrace-pg-tls-'));
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const asRoot = userInfo().uid === 0;
  const own = (path: string) => {
    if (!asRoot) return;
    const { uid, gid } = postgresIds();
    chownSync(path, uid, gid);
  };
  let started = false;
  const stop = async () => {
    try {
      if (started) await asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      started = false;
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    own(dir);
    await asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    for (const [from, to] of [
      [certs.certFile, 'server.crt'],
      [certs.keyFile, 'server.key'],
    ]) {
      copyFileSync(from, join(data, to));
      chmodSync(join(data, to), 0o600);
      own(join(data, to));
    }
    writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhostssl all all 127.0.0.1/32 trust\n');
    own(join(data, 'pg_hba.conf'));
    const options = `-p ${pinned} -k ${dir} -c listen_addresses=127.0.0.1 -c ssl=on -c fsync=off -c max_connections=200`;
    await asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
    started = true;
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  return {
    port: pinned,
    url: (sslmode) => `postgres://postgres@127.0.0.1:${pinned}/postgres?sslmode=${sslmode}`,
    stop,
  };
}

function postgresIds(): { uid: number; gid: number } {
  const passwd = readFileSync('/etc/passwd', 'utf8');
  const line = passwd.split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user on this machine');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
