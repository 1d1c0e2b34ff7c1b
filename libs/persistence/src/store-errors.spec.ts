import { isTransientStoreError, isUniqueViolation } from './store-errors';

describe('store error classification', () => {
  it('counts connection losses, shutdowns, conflicts and a busy file as transient', () => {
    for (const err of [
      { code: 'ECONNREFUSED' },
      { code: '57P01' }, // admin_shutdown
      { code: '08006' }, // connection_failure
      { code: '40001' }, // serialization_failure
      { driverError: { code: 'SQLITE_BUSY' } },
      new Error('Connection terminated unexpectedly'),
    ]) {
      expect(isTransientStoreError(err)).toBe(true);
    }
  });

  it('counts data errors and programming errors as the record’s own fault', () => {
    for (const err of [{ code: '22001' }, { code: '23505' }, new TypeError('x is undefined'), { driverError: { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' } }]) {
      expect(isTransientStoreError(err)).toBe(false);
    }
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
  });
});
