// The order jest runs the e2e files in: its own (the files that failed last time first, then the
// longest), regrouped so that the files asking for a stack of equal options (`useStack(...)`,
// test/e2e/support/stack-hooks.ts) run one after another, the largest group first. A run keeps
// only one stack no file holds (libs/testing/src/shared-stack-registry.ts): spread out, a shared
// stack would be stopped and started again between its files. What a file asks for is read from
// its text, a guess that can only cost a stack start when wrong, never a result. Other projects'
// files keep jest's order. Split into shards (jest --shard, as CI runs the distributed suite), the
// files are dealt by how long each took in a recorded run (e2e-durations.json), so the shards end
// together, and the files of one stack stay in one shard where that keeps them even.
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Seconds each e2e file took in a recorded distributed run (scripts/e2e-durations.js writes it), by path from the repository's root. */
const DURATIONS_FILE = path.join(__dirname, 'e2e-durations.json');

/** Options that make a stack the file's own, whatever else it asks (stack-hooks.ts). */
const OWN = /^\(|\bown\s*:\s*true\b|\b(apiKey|dataDir|kafkaBrokers|ownBroker|redisUrl|databaseServer|readyTimeoutMs)\s*:/;

/** The argument text of each `useStack(...)` call in a file, whitespace removed; own stacks as null. */
function stackCalls(text) {
  const calls = [];
  for (let at = text.indexOf('useStack('); at >= 0; at = text.indexOf('useStack(', at + 1)) {
    let depth = 0;
    let end = at + 'useStack'.length;
    for (; end < text.length; end += 1) {
      if (text[end] === '(') depth += 1;
      else if (text[end] === ')' && --depth === 0) break;
    }
    const argument = text.slice(at + 'useStack('.length, end).replace(/\s+/g, '');
    calls.push(OWN.test(argument) ? null : argument);
  }
  return calls;
}

/**
 * Where a file goes within the group of `key`: first the files that start other stacks before
 * the group's and none after (the group's stack then starts once they are done and lives on),
 * then the files that ask for the group's only, then the files that start others after it.
 */
function placeInGroup(calls, key) {
  const first = calls.indexOf(key);
  const last = calls.lastIndexOf(key);
  if (last < calls.length - 1) return 2;
  return first > 0 ? 0 : 1;
}

const isE2e = (test) => test.context.config.displayName?.name === 'e2e';

/** The stacks the files ask for, largest group first, and each file's: the largest group among those it asks for (null: only stacks of its own). */
function stackGroups(tests) {
  const files = tests.map((test) => ({ test, calls: stackCalls(readFileSync(test.path, 'utf8')) }));
  // How many files ask for each stack.
  const sizes = new Map();
  for (const { calls } of files) for (const key of new Set(calls)) if (key !== null) sizes.set(key, (sizes.get(key) ?? 0) + 1);
  const keys = [...sizes.keys()].sort((a, b) => sizes.get(b) - sizes.get(a));
  return { keys, files: files.map((file) => ({ ...file, group: keys.findIndex((key) => file.calls.includes(key)) })) };
}

/** The recorded seconds of each file, by path from the root; {} when none were recorded. */
function recordedDurations() {
  return existsSync(DURATIONS_FILE) ? JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) : {};
}

class StackGroupingSequencer extends Sequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    const { keys, files } = stackGroups(ordered.filter(isE2e));
    const rank = ({ calls, group }) => (group < 0 ? 3 * keys.length : 3 * group + placeInGroup(calls, keys[group]));
    // Array.prototype.sort is stable: within a place, jest's order stands.
    const regrouped = [...files].sort((a, b) => rank(a) - rank(b)).map(({ test }) => test);
    return [...ordered.filter((test) => !isE2e(test)), ...regrouped];
  }

  /** The e2e files of shard `shardIndex` (1-based) of `shardCount` (dealShards); other projects' tests are sharded as jest does. */
  shard(tests, { shardIndex, shardCount }) {
    if (!tests.every(isE2e)) return super.shard(tests, { shardIndex, shardCount });
    const root = tests[0]?.context.config.rootDir ?? '';
    const relative = (test) => path.relative(root, test.path).split(path.sep).join('/');
    return dealShards(tests, shardCount, recordedDurations(), relative)[shardIndex - 1];
  }
}

/**
 * The e2e files in `shardCount` shards, dealt longest first to the shard with the least time so
 * far (`recorded` seconds by `relative` path; a file not recorded counts as the median file). A
 * stack's files go together, as one, unless that one would be more than half a shard's share:
 * then they are dealt one by one (each shard starts that stack once). Every shard computes the
 * same deal from the same files and durations.
 */
function dealShards(tests, shardCount, recorded, relative) {
  const known = Object.values(recorded).sort((a, b) => a - b);
  const fallback = known.length ? known[Math.floor(known.length / 2)] : 1;
  const seconds = (test) => recorded[relative(test)] ?? fallback;

  const { files } = stackGroups([...tests].sort((a, b) => relative(a).localeCompare(relative(b))));
  const total = files.reduce((sum, { test }) => sum + seconds(test), 0);
  const byGroup = new Map();
  for (const file of files) {
    const key = file.group < 0 ? `own:${relative(file.test)}` : `group:${file.group}`;
    byGroup.set(key, [...(byGroup.get(key) ?? []), file.test]);
  }
  const units = [];
  for (const members of byGroup.values()) {
    const weight = members.reduce((sum, test) => sum + seconds(test), 0);
    if (weight > total / shardCount / 2) units.push(...members.map((test) => ({ tests: [test], weight: seconds(test) })));
    else units.push({ tests: members, weight });
  }
  // Heaviest first; ties by the first file's path, so that every shard deals alike.
  units.sort((a, b) => b.weight - a.weight || relative(a.tests[0]).localeCompare(relative(b.tests[0])));
  const shards = Array.from({ length: shardCount }, () => ({ seconds: 0, tests: [] }));
  for (const unit of units) {
    const lightest = shards.reduce((best, shard) => (shard.seconds < best.seconds ? shard : best));
    lightest.seconds += unit.weight;
    lightest.tests.push(...unit.tests);
  }
  return shards.map((shard) => shard.tests);
}

module.exports = StackGroupingSequencer;
module.exports.dealShards = dealShards;
