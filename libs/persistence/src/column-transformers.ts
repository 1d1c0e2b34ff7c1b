import type { ValueTransformer } from 'typeorm';

/**
 * Times are stored as epoch milliseconds in a BIGINT on both stores: one column type,
 * exact to the millisecond, and cheap to order and compare. pg hands BIGINT back as a string.
 */
export const epochMs: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? value : Number(value)),
};

export const toIso = (ms: number): string => new Date(ms).toISOString();
