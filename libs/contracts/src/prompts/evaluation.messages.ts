/**
 * benchmark-service → prompt-service: the facts a release's gate judges by, pushed as they
 * change (an outbox relays them; a fact may arrive twice or late, never lost). prompt-service
 * keeps them and judges gates from its own copy: it never asks benchmark-service.
 */
export interface EvaluationsRecordRequest {
  benchmarks: GateBenchmarkFact[];
  runs: EvaluationRunFact[];
}

/**
 * A benchmark as a gate sees it, at the moment it was sent. Facts only move forward (a dataset
 * version grows, a deletion is final), so the receiver keeps the furthest of what it was sent.
 */
export interface GateBenchmarkFact {
  id: string;
  projectId: string;
  /** Its scorer names: a gate's thresholds must name only these. */
  scorers: string[];
  datasetId: string;
  /** The dataset's version now; null once the dataset is deleted. */
  datasetVersion: number | null;
  deleted: boolean;
}

/** A completed run that rendered a prompt version: fixed once completed. */
export interface EvaluationRunFact {
  id: string;
  projectId: string;
  benchmarkId: string;
  promptId: string;
  promptVersion: number;
  datasetId: string;
  datasetVersion: number;
  /** Items the run covered, of the `datasetItems` its dataset held at `datasetVersion`. */
  items: number;
  datasetItems: number;
  /** Epoch milliseconds. */
  finishedAt: number;
  scores: Record<string, { mean: number | null; passRate: number | null }>;
}

/** How many facts the receiver took (taking one again changes nothing). */
export interface FactsRecordedReply {
  taken: number;
}
