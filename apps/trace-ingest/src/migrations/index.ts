import { CreateTraces1763881200000 } from './1763881200000-CreateTraces';
import { BoundTraceMerges1764100000000 } from './1764100000000-BoundTraceMerges';
import { StoreAttributeCopiesOnce1764300000000 } from './1764300000000-StoreAttributeCopiesOnce';
import { QueueTraceMedia1764700000000 } from './1764700000000-QueueTraceMedia';
import { IndexOnlyTracesWithUserOrSession1764900000000 } from './1764900000000-IndexOnlyTracesWithUserOrSession';
import { PriceSpansAtIngest1765100000000 } from './1765100000000-PriceSpansAtIngest';
import { CountUsageOnce1765200000000 } from './1765200000000-CountUsageOnce';
import { KeepMicroseconds1765300000000 } from './1765300000000-KeepMicroseconds';
import { StoreScores1765400000000 } from './1765400000000-StoreScores';

/** In order of their timestamps. */
export const traceIngestMigrations = [
  CreateTraces1763881200000,
  BoundTraceMerges1764100000000,
  StoreAttributeCopiesOnce1764300000000,
  QueueTraceMedia1764700000000,
  IndexOnlyTracesWithUserOrSession1764900000000,
  PriceSpansAtIngest1765100000000,
  CountUsageOnce1765200000000,
  KeepMicroseconds1765300000000,
  StoreScores1765400000000,
];
