#!/usr/bin/env node
// Starts every app of the distributed mode as its own process, for local use and tests.
// Reads KAFKA_BROKERS, DATABASE_URL, REDIS_URL, SECRETS_KEY and PORT (gateway) from the environment.
const { spawn } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');

// Services before the gateway; each later app joins this list when it exists.
const APPS = ['project-service', 'prompt-service', 'trace-ingest', 'benchmark-service', 'benchmark-worker', 'media-service', 'gateway'];

const required = ['KAFKA_BROKERS', 'DATABASE_URL', 'REDIS_URL', 'SECRETS_KEY'];
// A secret may be given as <NAME>_FILE (each app reads the file itself).
const missing = required.filter((name) => !process.env[name] && !process.env[`${name}_FILE`]);
if (missing.length) {
  console.error(`start:distributed needs ${missing.join(' and ')} (see README, "Configuration")`);
  process.exit(1);
}

const children = APPS.map((app) => {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'apps', app, 'dist', 'main.js')], {
    stdio: 'inherit',
    env: process.env,
  });
  child.on('exit', (code, signal) => {
    console.error(`${app} exited (${signal ?? code}); stopping the others`);
    shutdown(code ?? 1);
  });
  return child;
});

/** The gateway's address, the console's and where the key is, once the gateway answers /readyz. */
async function announceWhenReady() {
  const { announceReady } = require('@cinetrace/logging');
  const port = Number(process.env.PORT || 3000);
  // The readiness answer once it is 200 (it says where OTLP/gRPC really listens), else null.
  const readiness = () =>
    new Promise((resolve) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/readyz', timeout: 2000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) return resolve(null);
          try {
            resolve(JSON.parse(body));
          } catch {
            resolve(null);
          }
        });
      });
      request.on('error', () => resolve(null));
      request.on('timeout', () => request.destroy());
    });
  for (let waited = 0; waited < 180 && !stopping; waited++) {
    const ready = await readiness();
    if (ready) {
      announceReady(
        {
          mode: 'distributed',
          host: process.env.HOST || '0.0.0.0',
          port,
          // What the gateway took, not what was asked: another program may hold OTLP_GRPC_PORT.
          otlpGrpcPort: ready.otlpGrpcPort ?? 0,
          keyFile: path.resolve(process.env.DATA_DIR || './data', 'bootstrap-api-key'),
          keyFromEnvironment: Boolean(process.env.BOOTSTRAP_API_KEY || process.env.BOOTSTRAP_API_KEY_FILE),
        },
        (line) => console.log(JSON.stringify({ level: 30, time: Date.now(), app: 'start-distributed', msg: line })),
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 10000).unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r))))).then(() => process.exit(code));
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

announceWhenReady().catch(() => undefined);
