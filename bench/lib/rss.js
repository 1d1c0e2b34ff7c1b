'use strict';
// A process's resident memory (VmRSS, from /proc: Linux), now and at its peak while a figure
// is measured (issue 26: the all-in-one process at rest, and during the ingest run).
const fs = require('node:fs');

/** The process's resident set in MB (10^6 bytes), or null once it is gone. */
function rssMb(pid) {
  try {
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kib ? (Number(kib[1]) * 1024) / 1e6 : null;
  } catch {
    return null;
  }
}

/** Samples the process's RSS every `everyMs` until `stop()`, which answers the peak in MB. */
function sampleRss(pid, everyMs = 200) {
  let peak = rssMb(pid) ?? 0;
  const timer = setInterval(() => {
    const now = rssMb(pid);
    if (now !== null && now > peak) peak = now;
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const now = rssMb(pid);
      return now !== null && now > peak ? now : peak;
    },
  };
}

module.exports = { rssMb, sampleRss };
