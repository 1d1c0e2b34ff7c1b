// The order jest runs the e2e files in: its own (the files that failed last time first, then the
// longest), regrouped so that the files asking for a stack of equal options (`useStack(...)`,
// test/e2e/support/stack-hooks.ts) run one after another, the largest group first. A run keeps
// only one stack no file holds (libs/testing/src/shared-stack-registry.ts): spread out, a shared
// stack would be stopped and started again between its files. What a file asks for is read from
// its text, a guess that can only cost a stack start when wrong, never a result. Other projects'
// files keep jest's order.
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

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

class StackGroupingSequencer extends Sequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    const isE2e = (test) => test.context.config.displayName?.name === 'e2e';
    const files = ordered.filter(isE2e).map((test) => ({ test, calls: stackCalls(readFileSync(test.path, 'utf8')) }));
    // How many files ask for each stack; a file joins the largest group among those it asks for.
    const sizes = new Map();
    for (const { calls } of files) for (const key of new Set(calls)) if (key !== null) sizes.set(key, (sizes.get(key) ?? 0) + 1);
    const keys = [...sizes.keys()].sort((a, b) => sizes.get(b) - sizes.get(a));
    const rank = ({ calls }) => {
      const group = keys.findIndex((key) => calls.includes(key));
      return group < 0 ? 3 * keys.length : 3 * group + placeInGroup(calls, keys[group]);
    };
    // Array.prototype.sort is stable: within a place, jest's order stands.
    const regrouped = [...files].sort((a, b) => rank(a) - rank(b)).map(({ test }) => test);
    return [...ordered.filter((test) => !isE2e(test)), ...regrouped];
  }
}

module.exports = StackGroupingSequencer;
