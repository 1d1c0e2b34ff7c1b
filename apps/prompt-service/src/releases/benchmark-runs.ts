import { BusClient } from '@cinetrace/bus';
import { DomainError, ErrorCode, Patterns, ProjectContext, RunsOfPromptReply, RunsOfPromptRequest } from '@cinetrace/contracts';
import { Injectable } from '@nestjs/common';

/**
 * What benchmark-service knows about a gate's benchmark: its scorers, its dataset's version,
 * and the completed runs over that whole dataset that rendered a prompt version. Asked over
 * the bus: runs are benchmark-service's data. null when the benchmark is not one of the
 * caller's project (deleted, or never was).
 */
@Injectable()
export class BenchmarkRuns {
  constructor(private readonly bus: BusClient) {}

  /** `datasetVersion`: the dataset version whose whole runs count (absent: the dataset's version now). */
  async ofPrompt(ctx: ProjectContext, benchmarkId: string, promptId: string, promptVersion: number, datasetVersion?: number): Promise<RunsOfPromptReply | null> {
    try {
      const request: RunsOfPromptRequest = { ctx, benchmarkId, promptId, promptVersion, ...(datasetVersion !== undefined ? { datasetVersion } : {}) };
      return await this.bus.request(Patterns.RunsOfPrompt, request);
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.NotFound) return null;
      throw err;
    }
  }
}
