#!/usr/bin/env node
'use strict';
// The build `npm start` and `npm run start:distributed` run first: turbo's own output (its
// header, every package's log, its summary) only when the build fails, and its telemetry
// off; a person starting the service sees one line. `npm run build` keeps turbo's output.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');
const started = Date.now();
const atTerminal = process.stdout.isTTY === true;
if (atTerminal) process.stdout.write('Building cinetrace… ');
const build = spawnSync(path.join(root, 'node_modules', '.bin', 'turbo'), ['run', 'build', '--output-logs=errors-only'], {
  cwd: root,
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (build.status !== 0) {
  if (atTerminal) process.stdout.write('failed\n');
  process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}${build.error ? `${build.error.message}\n` : ''}`);
  process.stderr.write("The build failed (above). `npm run build` shows every package's output.\n");
  process.exit(build.status ?? 1);
}
if (atTerminal) process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
