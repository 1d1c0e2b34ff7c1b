#!/usr/bin/env node
// Starts every app of the distributed mode as its own process, for local use and tests.
// Reads KAFKA_BROKERS, DATABASE_URL, REDIS_URL, SECRETS_KEY and PORT (gateway) from the environment.
const { spawn } = require('node:child_process');
const path = require('node:path');

// Services before the gateway; each later app joins this list when it exists.
const APPS = ['project-service', 'prompt-service', 'trace-ingest', 'benchmark-service', 'benchmark-worker', 'gateway'];

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

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 10000).unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r))))).then(() =>
    process.exit(code),
  );
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
