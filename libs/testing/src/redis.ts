import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port';
import type { TestCertificates } from './test-certificates';

/** A Redis server of a test's own (redis-server from the machine), to stop and start: a queue outage. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>` (`rediss://user:password@…` with TLS), the value for REDIS_URL. */
  readonly url: string;
  /** Kills the server (it keeps nothing on disk) and waits until it has exited. */
  stop(): Promise<void>;
  /** Starts it again at the same address, empty. */
  start(): Promise<void>;
}

export interface TestRedisOptions {
  /** TLS only (no plaintext port), with this server certificate; clients need not present one. */
  tls?: TestCertificates;
  /** An ACL user (the default user is turned off): the URL carries the name and password. */
  user?: { name: string; password: string };
  port?: number;
}

export async function startRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const port = options.port ?? (await freePort());
  const { tls, user } = options;
  const args = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  if (tls) {
    args.push(
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--tls-cert-file',
      tls.certFile,
      '--tls-key-file',
      tls.keyFile,
      '--tls-ca-cert-file',
      tls.caFile,
      '--tls-auth-clients',
      'no',
    );
  } else {
    args.push('--port', String(port));
  }
  if (user) args.push('--user', 'default', 'off', '--user', user.name, 'on', `>${user.password}`, '~*', '&*', '+@all');
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn('redis-server', args, { stdio: 'ignore' });
    await untilAnswers(port, server, tls && readFileSync(tls.caFile), user);
  };
  const stop = async () => {
    const running = server;
    server = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  const credentials = user ? `${encodeURIComponent(user.name)}:${encodeURIComponent(user.password)}@` : '';
  return { url: `${tls ? 'rediss' : 'redis'}://${credentials}127.0.0.1:${port}`, stop, start };
}

async function untilAnswers(port: number, server: ChildProcess, ca?: Buffer, user?: { name: string; password: string }): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`redis-server exited with code ${server.exitCode}`);
    if (await pings(port, ca, user)) return;
    await sleep(50);
  }
  throw new Error(`redis-server did not answer on port ${port} within 10 s`);
}

function pings(port: number, ca?: Buffer, user?: { name: string; password: string }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = ca ? connectTls({ port, host: '127.0.0.1', ca }) : connect(port, '127.0.0.1');
    socket.setTimeout(500);
    const auth = user ? `AUTH ${user.name} ${user.password}\r\n` : '';
    socket.once(ca ? 'secureConnect' : 'connect', () => socket.write(`${auth}PING\r\n`));
    let answer = '';
    socket.on('data', (data: Buffer) => {
      answer += data.toString();
      if (!answer.includes('\r\n') || (user && answer.split('\r\n').length < 3)) return;
      socket.destroy();
      resolve(answer.includes('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
