'use strict';
// Project A's flood for bench/fairness.js, in a process of its own: its sending (several MiB
// bodies, eight at a time) must not hold up the event loop that times project B's requests.
// Started with fork(); told what to send in the first message, and 'stop' to end: it answers
// the counts of A's answers by status, then exits.
const fs = require('node:fs');
const c = require('./common');

let stopped = false;
const statuses = new Map();

/** A distinct copy of `bytes`: a counter after the end, which PNG and MP4 readers ignore (the service keeps one media per content). */
let distinct = 0;
const unique = (bytes) => Buffer.concat([bytes, Buffer.from(`#${process.pid}-${++distinct}`)]);

/** One of A's requests, as the first message describes it. */
function requester(spec) {
  const body = spec.bodyFile ? fs.readFileSync(spec.bodyFile) : undefined;
  const headers = { ...spec.headers, ...(spec.contentType ? { 'content-type': spec.contentType } : {}) };
  let at = 0;
  switch (spec.kind) {
    case 'otlp':
      return () => c.request(spec.baseUrl, 'POST', '/v1/traces', { headers, body, timeoutMs: 60_000 });
    case 'upload':
      return () => c.request(spec.baseUrl, 'POST', '/api/v1/media', { headers, body: unique(body), timeoutMs: 120_000 });
    case 'frame':
      // Instants not asked before, so that each request renders.
      return () => c.request(spec.baseUrl, 'GET', `/api/v1/media/${spec.mediaId}/frames?atMs=${1000 + ((at += 89) % 19_000)}`, { headers, timeoutMs: 30_000 });
    default:
      throw new Error(`no flood of kind '${spec.kind}'`);
  }
}

/** How long an answer asks A to wait (its Retry-After, in ms) when A honours it; 0 otherwise. */
function heldBackMs(spec, r) {
  if (!spec.honourRetryAfter || (r.status !== 429 && r.status !== 503)) return 0;
  const seconds = Number(r.headers['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

async function flood(spec) {
  const one = requester(spec);
  const deadline = Date.now() + spec.maxPhaseSeconds * 1000;
  const loop = async () => {
    while (!stopped && Date.now() < deadline) {
      try {
        const r = await one();
        statuses.set(r.status, (statuses.get(r.status) || 0) + 1);
        const waitMs = Math.min(heldBackMs(spec, r), deadline - Date.now());
        if (waitMs > 0) await c.sleep(waitMs);
      } catch {
        statuses.set('error', (statuses.get('error') || 0) + 1);
        await c.sleep(50);
      }
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, loop));
}

let running;
process.on('message', (message) => {
  if (message === 'stop') {
    stopped = true;
    void running.then(() => {
      process.send([...statuses].map(([status, n]) => `${n}×${status}`).join(', '), () => process.exit(0));
    });
  } else running = flood(message);
});
