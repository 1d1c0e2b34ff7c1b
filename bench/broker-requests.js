#!/usr/bin/env node
'use strict';
// Counts the requests an Apache Kafka broker completed, by client and API, from the log
// scripts/kafka/broker.sh writes with KAFKA_REQUEST_LOG=<file> (the benches pass it on to
// their brokers). With --per N, also per unit of work (N traces read, N tasks run …), so the
// broker's part of each hop shows as requests, not only as CPU.
// Usage: node bench/broker-requests.js <file> [--per N] [--top 30]
const fs = require('node:fs');
const readline = require('node:readline');
const { parseArgs } = require('./lib/common');

const [file, ...rest] = process.argv.slice(2);
if (!file || file.startsWith('--')) {
  console.error('usage: node bench/broker-requests.js <request log> [--per N] [--top 30]');
  process.exit(2);
}
const opts = parseArgs(rest, { per: 0, top: 30 });

/** One completed request's client, API and total time, or null for any other line. */
function parseLine(line) {
  const api = /"requestApiKeyName":"(\w+)"/.exec(line);
  const client = /"clientId":"([^"]*)"/.exec(line);
  if (!api || !client) return null;
  const total = /"totalTimeMs":([\d.]+)/.exec(line);
  return { key: `${client[1]} ${api[1]}`, ms: total ? Number(total[1]) : null };
}

async function main() {
  const byKey = new Map();
  let requests = 0;
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    const request = parseLine(line);
    if (!request) continue;
    requests++;
    const entry = byKey.get(request.key) ?? { count: 0, times: [] };
    entry.count++;
    if (request.ms !== null) entry.times.push(request.ms);
    byKey.set(request.key, entry);
  }
  const per = opts.per > 0 ? opts.per : null;
  console.log(`${requests} requests${per ? `, ${(requests / per).toFixed(2)} per unit (${per} units)` : ''}`);
  console.log(['count', per ? 'per unit' : null, 'p50 ms', 'client and API'].filter(Boolean).join('\t'));
  const rows = [...byKey].sort((a, b) => b[1].count - a[1].count).slice(0, opts.top);
  for (const [key, { count, times }] of rows) {
    times.sort((a, b) => a - b);
    const p50 = times.length ? times[Math.floor(times.length / 2)].toFixed(1) : '-';
    console.log([count, per ? (count / per).toFixed(3) : null, p50, key].filter((x) => x !== null).join('\t'));
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
