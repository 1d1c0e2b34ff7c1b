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

/** Any JSON value as text; SQL NULL reads back as `undefined` ("absent"), so JSON `null` survives a round-trip. */
export const jsonText = {
  to: (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value)),
  from: (text: string | null): unknown => (text === null ? undefined : JSON.parse(text)),
} satisfies ValueTransformer;

/** A nullable floating-point column: pg may hand numerics back as strings. */
export const nullableNumber: ValueTransformer = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};
