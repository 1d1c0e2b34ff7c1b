#!/usr/bin/env node
'use strict';
// What a client polling a prompt's production release costs the service (not a test: it
// always exits 0 once it ran). Starts the service, makes a prompt with `production` → 1,
// then sends back to back, one at a time, for --duration seconds each (after --warmup
// seconds not counted):
//   - the conditional GET a polling client sends, `?release=production` with
//     `If-None-Match: "1"` (answered 304, no body), and
//   - the same GET without If-None-Match (200 with the prompt), to compare;
// and prints latency and the CPU the service's processes spent per request (from /proc,
// the service's own process group only).
// A client polling once a second costs that many milliseconds of CPU per second.
// The two alternate for --rounds rounds; each figure is the median round (a shared machine's
// neighbours make single rounds noisy).
// Usage: node bench/prompt-poll.js [--mode all-in-one|distributed] [--duration 5] [--warmup 10] [--rounds 3]
const c = require('./lib/common');
const { processStats, TICKS_PER_SECOND } = require('./lib/cpu');

const opts = c.parseArgs(process.argv.slice(2), { mode: 'all-in-one', duration: 5, warmup: 10, rounds: 3 });
const log = (...a) => console.error(...a);

/**
 * CPU ticks (user + system) of the processes in one process group: the service this bench
 * started and whatever it started (the bench starts it detached, as its group's leader).
 * Not the broker or the stores, and not other stacks on a shared machine (bench/lib/cpu.js
 * tells apps apart by command line, which counts every stack's).
 */
function groupTicks(pgid) {
  let ticks = 0;
  for (const { fields } of processStats()) {
    if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]); // pgrp; utime, stime
  }
  return ticks;
}

async function measure(service, headers, warmupSeconds) {
  const path = `/api/v1/prompts/${service.promptId}?release=production`;
  const expected = headers['if-none-match'] ? 304 : 200;
  await c.measureLatency(() => c.request(service.baseUrl, 'GET', path, { headers: { ...service.headers, ...headers } }), {
    concurrency: 1,
    durationMs: warmupSeconds * 1000,
    warmupMs: 0,
    check: (r) => r.status === expected,
  });
  const ticksBefore = groupTicks(service.proc.pid);
  const result = await c.measureLatency(() => c.request(service.baseUrl, 'GET', path, { headers: { ...service.headers, ...headers } }), {
    concurrency: 1,
    durationMs: opts.duration * 1000,
    warmupMs: 0,
    check: (r) => r.status === expected,
  });
  const cpuMs = ((groupTicks(service.proc.pid) - ticksBefore) * 1000) / TICKS_PER_SECOND;
  return { ...result, cpuMs: cpuMs / result.n };
}

async function main() {
  log(`Starting the service (${opts.mode})…`);
  const service = await c.startService(opts.mode, { log });
  if (!service.proc.pid) throw new Error('the service has no process group of its own to measure');
  try {
    const created = await c.request(service.baseUrl, 'POST', '/api/v1/prompts', {
      headers: service.headers,
      body: JSON.stringify({ name: 'Poll', type: 'text-to-video', content: 'A slow dolly shot of {{subject}} at dawn' }),
    });
    if (created.status !== 201) throw new Error(`creating the prompt: ${created.status} ${created.body}`);
    service.promptId = created.json().id;
    const released = await c.request(service.baseUrl, 'PUT', `/api/v1/prompts/${service.promptId}/releases/production`, {
      headers: service.headers,
      body: JSON.stringify({ version: 1 }),
    });
    if (released.status !== 200) throw new Error(`releasing: ${released.status} ${released.body}`);

    const kinds = [
      ['GET ?release=production, If-None-Match current (304)', { 'if-none-match': '"1"' }],
      ['GET ?release=production, unconditional (200)', {}],
    ];
    const results = kinds.map(() => []);
    for (let round = 1; round <= opts.rounds; round++) {
      for (const [i, [figure, headers]] of kinds.entries()) {
        const r = await measure(service, headers, round === 1 ? opts.warmup : 1);
        log(
          `round ${round}, ${figure}: ${r.n} requests, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, errors ${r.errors}${r.firstError ? ` (${r.firstError})` : ''}; service CPU ${r.cpuMs.toFixed(3)} ms per request`,
        );
        results[i].push(r);
      }
    }
    const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const rows = kinds.flatMap(([figure], i) => [
      { figure: `${figure}: p50 ms`, service: median(results[i].map((r) => r.p50)) },
      { figure: `${figure}: service CPU ms per request`, service: median(results[i].map((r) => r.cpuMs)) },
    ]);
    c.printTable(`Polling a prompt release (${opts.mode}, one client, back to back)`, rows);
  } finally {
    await service.stop();
  }
}

main()
  .catch((err) => {
    console.error(err);
  })
  .finally(() => c.cleanupAll().then(() => process.exit(0)));
