import type { BusRequestShape } from './bus-patterns/request-shape';
import { BUS_PATTERNS, type Pattern } from './patterns';

export type { BusRequestShape } from './bus-patterns/request-shape';

/** Every request pattern's shape, as its declaration (BUS_PATTERNS) says. */
export const BUS_REQUEST_SHAPES: Readonly<Record<Pattern, BusRequestShape>> = Object.fromEntries(Object.values(BUS_PATTERNS).map((entry) => [entry.wire, entry.shape])) as Record<
  Pattern,
  BusRequestShape
>;
