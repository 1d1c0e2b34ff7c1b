'use strict';
// Where a V8 CPU profile's busy time went (idle excluded), per unit of work: self and
// inclusive time by package (a node_modules package, an app or library of this repository,
// a node: module), and the functions with the most self time. With --match, the inclusive
// time of each function whose file matches the pattern (what a query helper costs with all
// it calls). Profiles come from bench/lib/profile-preload.js (BENCH_PROFILE_WHOLE=1 for a
// whole bench:runs).
// Usage: node bench/profile-summary.js <file.cpuprofile> [--per 20000] [--top 25] [--match 'apps/benchmark-service']
const fs = require('node:fs');
const c = require('./lib/common');

const [file, ...rest] = process.argv.slice(2);
const opts = c.parseArgs(rest, { per: 1, top: 25, match: '' });
if (!file) throw new Error('usage: node bench/profile-summary.js <file.cpuprofile> [--per N] [--top N] [--match pattern]');

const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children || []) parentOf.set(child, node.id);

/** The package a frame belongs to. */
function packageOf({ url, functionName }) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const dependency = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (dependency) return dependency[1];
  if (url.startsWith('node:')) return url;
  const own = url.match(/(apps|libs)\/([^/]+)/);
  return own ? `${own[1]}/${own[2]}` : url.split('/').pop();
}
const functionOf = ({ functionName, url, lineNumber }) => `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber}`;
const add = (map, key, us) => map.set(key, (map.get(key) || 0) + us);

const self = new Map();
const inclusive = new Map();
const selfByFunction = new Map();
const matched = new Map();
const pattern = opts.match ? new RegExp(opts.match) : null;
let busy = 0;
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i + 1] ?? 0; // the time until the next sample
  const frame = nodes.get(id).callFrame;
  if (frame.functionName === '(idle)') return;
  busy += us;
  add(self, packageOf(frame), us);
  add(selfByFunction, functionOf(frame), us);
  const packages = new Set();
  const functions = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const caller = nodes.get(at).callFrame;
    packages.add(packageOf(caller));
    if (pattern?.test(caller.url)) functions.add(functionOf(caller));
  }
  for (const key of packages) add(inclusive, key, us);
  for (const key of functions) add(matched, key, us);
});

const line = (us, key) => `${(us / opts.per).toFixed(1).padStart(9)} µs ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${key}`;
const print = (title, map) => {
  console.log(`-- ${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(opts.top))) console.log(line(us, key));
};
console.log(`${file}: ${(busy / 1e6).toFixed(2)} s busy, ${(busy / opts.per).toFixed(1)} µs per unit (--per ${opts.per})`);
if (pattern) print(`inclusive, functions in files matching ${opts.match}`, matched);
else {
  print('self time by package', self);
  print('inclusive time by package', inclusive);
  print('self time by function', selfByFunction);
}
