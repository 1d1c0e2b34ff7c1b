#!/usr/bin/env node
'use strict';
// Records how long each e2e file took, for the e2e sequencer's shards (test/jest/e2e-sequencer.js):
// reads the JSON results of distributed e2e runs (jest --json, as .ci/run writes them to
// .ci/out/e2e-distributed-*.json) and writes test/jest/e2e-durations.json, seconds by path from
// the repository's root. Run it after a CI run whose shards ended far apart:
//   node scripts/e2e-durations.js .ci/out/e2e-distributed-*.json
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const files = process.argv.slice(2);
if (!files.length) {
  console.error('usage: node scripts/e2e-durations.js <jest --json results>...');
  process.exit(2);
}
const durations = {};
for (const file of files) {
  for (const suite of JSON.parse(readFileSync(file, 'utf8')).testResults) {
    const name = path.relative(root, suite.name).split(path.sep).join('/');
    if (suite.endTime && suite.startTime) durations[name] = Math.round((suite.endTime - suite.startTime) / 100) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(path.join(root, 'test/jest/e2e-durations.json'), JSON.stringify(sorted, null, 2) + '\n');
console.log(`${Object.keys(sorted).length} files recorded, ${Math.round(Object.values(sorted).reduce((a, b) => a + b, 0))} s in all`);
