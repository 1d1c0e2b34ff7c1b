'use strict';
// Loaded into an app with `--require` (BENCH_NODE_OPTIONS) by bench/cpu-per-request.js: each
// SIGUSR2 starts V8's CPU profiler (100 µs sampling) or stops it and writes the profile to
// $BENCH_PROFILE_DIR/<pid>-<n>.cpuprofile (Chrome DevTools or speedscope open them).
// With BENCH_PROFILE_WHOLE=1 it profiles the process's whole life instead (500 µs sampling)
// and writes <pid>-<app>.cpuprofile when it exits: for the benches that start the apps
// themselves, such as bench:runs (Node refuses --cpu-prof in NODE_OPTIONS).
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_PROFILE_DIR || '.';
const session = new inspector.Session();
session.connect();

if (process.env.BENCH_PROFILE_WHOLE === '1') {
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  // An in-thread inspector session answers synchronously, so this completes within 'exit'.
  process.on('exit', () =>
    session.post('Profiler.stop', (err, result) => {
      const app = path.basename(path.dirname(path.dirname(process.argv[1] || 'node')));
      if (!err) fs.writeFileSync(path.join(dir, `${process.pid}-${app}.cpuprofile`), JSON.stringify(result.profile));
    }),
  );
} else {
  let running = false;
  let written = 0;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 100 }, () => session.post('Profiler.start')));
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, result) => {
      if (!err) fs.writeFileSync(path.join(dir, `${process.pid}-${written++}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
