'use strict';
// Shared by both baselines, which are standalone processes: keep this file dependency-free.

const isoOrNull = (v) => (v === null ? null : new Date(v).toISOString());

/** The API's trace summary from a baseline's trace row (times as Date or epoch ms). */
function traceSummary(row, projectId) {
  return {
    id: row.id,
    projectId,
    name: row.name,
    status: row.status,
    startTime: isoOrNull(row.start_time),
    endTime: isoOrNull(row.end_time),
    durationMs: row.end_time === null ? null : row.end_time - row.start_time,
    spanCount: row.span_count,
    errorCount: row.error_count,
    tags: JSON.parse(row.tags),
    metadata: JSON.parse(row.metadata),
    userId: row.user_id,
    sessionId: row.session_id,
    createdAt: isoOrNull(row.created_at),
    updatedAt: isoOrNull(row.updated_at),
  };
}

module.exports = { traceSummary };
