'use strict';
// The all-in-one baseline's store (bench/baseline-sqlite.js): its schema and how it writes a
// trace. Kept apart so that bench/sqlite-floor.js times exactly these statements alone.
const Database = require('better-sqlite3');

/**
 * Opens (creating) the baseline's SQLite file: WAL, synchronous=NORMAL. `serviceIndexes`
 * also keeps what the service keeps for the list's filters (API.md: name, userId, sessionId,
 * tags): the traces' indexes by name, user and session, and a row per tag.
 */
function openBaselineStore(file, { serviceIndexes = false } = {}) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS traces (
      project_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT, status TEXT NOT NULL,
      start_time INTEGER NOT NULL, end_time INTEGER, span_count INTEGER NOT NULL, error_count INTEGER NOT NULL,
      user_id TEXT, session_id TEXT, tags TEXT NOT NULL, metadata TEXT NOT NULL, input TEXT, output TEXT,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
      PRIMARY KEY (project_id, id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS traces_by_start ON traces (project_id, start_time DESC, id DESC);
    CREATE TABLE IF NOT EXISTS spans (
      project_id TEXT NOT NULL, trace_id TEXT NOT NULL, id TEXT NOT NULL, start_time INTEGER NOT NULL, data TEXT NOT NULL,
      PRIMARY KEY (project_id, trace_id, id)
    ) WITHOUT ROWID;
  `);
  if (serviceIndexes) {
    db.exec(`
      CREATE INDEX IF NOT EXISTS traces_by_name ON traces (project_id, name, start_time, id);
      CREATE INDEX IF NOT EXISTS traces_by_user ON traces (project_id, user_id, start_time, id) WHERE user_id IS NOT NULL;
      CREATE INDEX IF NOT EXISTS traces_by_session ON traces (project_id, session_id, start_time, id) WHERE session_id IS NOT NULL;
      CREATE TABLE IF NOT EXISTS trace_tags (project_id TEXT NOT NULL, tag TEXT NOT NULL, trace_id TEXT NOT NULL, PRIMARY KEY (project_id, tag, trace_id)) WITHOUT ROWID;
    `);
  }
  const insertTag = serviceIndexes ? db.prepare('INSERT INTO trace_tags (project_id, tag, trace_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING') : null;
  const upsertTrace = db.prepare(`
    INSERT INTO traces (project_id, id, name, status, start_time, end_time, span_count, error_count, user_id, session_id,
                        tags, metadata, input, output, created_at, updated_at)
    VALUES (@projectId, @id, @name, @status, @startTime, @endTime, @spanCount, @errorCount, @userId, @sessionId,
            @tags, @metadata, @input, @output, @now, @now)
    ON CONFLICT (project_id, id) DO UPDATE SET name = excluded.name, status = excluded.status,
      start_time = excluded.start_time, end_time = excluded.end_time, span_count = excluded.span_count,
      error_count = excluded.error_count, user_id = excluded.user_id, session_id = excluded.session_id,
      tags = excluded.tags, metadata = excluded.metadata, input = excluded.input, output = excluded.output,
      updated_at = excluded.updated_at`);
  const upsertSpan = db.prepare(`
    INSERT INTO spans (project_id, trace_id, id, start_time, data) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (project_id, trace_id, id) DO UPDATE SET start_time = excluded.start_time, data = excluded.data`);
  let seq = 0;

  /** A trace's rows: its spans' (their JSON as text), its tags' (with serviceIndexes) and its own. */
  function rowsOf(projectId, trace, now) {
    const id = trace.id || `tr_${now.toString(36)}${(seq++).toString(36)}`;
    const spans = Array.isArray(trace.spans) ? trace.spans : [];
    let errorCount = 0;
    let earliest = null;
    const spanRows = spans.map((span) => {
      const start = ms(span.startTime);
      if (earliest === null || start < earliest) earliest = start;
      if (span.status === 'error') errorCount++;
      return [projectId, id, span.id, start, JSON.stringify(span)];
    });
    const tagRows = insertTag ? (trace.tags || []).map((tag) => [projectId, tag, id]) : [];
    const status = trace.status || (trace.endTime ? 'ok' : 'running');
    const traceRow = {
      projectId,
      id,
      name: trace.name ?? null,
      status,
      startTime: ms(trace.startTime) ?? earliest ?? now,
      endTime: ms(trace.endTime),
      spanCount: spans.length,
      errorCount,
      userId: trace.userId ?? null,
      sessionId: trace.sessionId ?? null,
      tags: JSON.stringify(trace.tags || []),
      metadata: JSON.stringify(trace.metadata || {}),
      input: trace.input === undefined ? null : JSON.stringify(trace.input),
      output: trace.output === undefined ? null : JSON.stringify(trace.output),
      now,
    };
    return { spanRows, tagRows, traceRow };
  }

  /** Writes rowsOf's rows (in the caller's transaction); answers what a POST answers. */
  function storeRows({ spanRows, tagRows, traceRow }) {
    for (const row of spanRows) upsertSpan.run(...row);
    for (const row of tagRows) insertTag.run(...row);
    upsertTrace.run(traceRow);
    return { id: traceRow.id, status: traceRow.status, spanCount: traceRow.spanCount };
  }

  return { db, rowsOf, storeRows, store: (projectId, trace, now) => storeRows(rowsOf(projectId, trace, now)) };
}

const ms = (t) => (t === undefined || t === null ? null : typeof t === 'number' ? t : Date.parse(t));

module.exports = { openBaselineStore, ms };
