'use strict';
// bench/read.js's seed trace, which bench/sqlite-floor.js stores too.
const BASE_MS = Date.UTC(2029, 0, 1);

/** A small seed trace: `spanCount` spans, times one second apart by index, one of 100 users. */
function seedTrace(run, i, spanCount = 1) {
  const start = BASE_MS + i * 1000;
  const iso = (ms) => new Date(ms).toISOString();
  const spans = [];
  for (let k = 0; k < spanCount; k++) {
    spans.push({
      id: `s${k}`,
      name: `step-${k}`,
      kind: 'generation',
      status: 'ok',
      startTime: iso(start + 10 * k),
      endTime: iso(start + 10 * k + 9),
      model: 'video-model-xl',
      usage: { inputTokens: 100, outputTokens: 20 },
      input: { prompt: 'a red kite over a grey sea, slow pan' },
    });
  }
  return {
    id: `seed-${run}-${i}`,
    name: 'render',
    status: 'ok',
    startTime: iso(start),
    endTime: iso(start + 500),
    metadata: { batch: Math.floor(i / 1000) },
    tags: ['seed'],
    userId: `user-${i % 100}`,
    spans,
  };
}

module.exports = { seedTrace, BASE_MS };
