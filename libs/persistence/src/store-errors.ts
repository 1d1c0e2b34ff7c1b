/** True when a write failed on a unique constraint, on PostgreSQL or SQLite alike. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string } };
  const code = e?.driverError?.code ?? e?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const TRANSIENT_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const TRANSIENT_SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL', 'SQLITE_CANTOPEN']);

/**
 * True when a store call failed because of the store, not the data: the connection,
 * the server shutting down or out of resources, a serialization conflict, a busy file.
 * Retrying such a call later can succeed; retrying a data error never does.
 */
export function isTransientStoreError(err: unknown): boolean {
  const e = err as { code?: string; message?: string; driverError?: { code?: string } };
  const code = String(e?.driverError?.code ?? e?.code ?? '');
  if (TRANSIENT_NODE_CODES.has(code) || TRANSIENT_SQLITE_CODES.has(code)) return true;
  // PostgreSQL SQLSTATE classes: 08 connection, 53 resources, 57 operator intervention, 40 rollback.
  if (/^(08|53|57|40)[0-9A-Z]{3}$/.test(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed/i.test(e?.message ?? '');
}
