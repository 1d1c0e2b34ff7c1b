import { DomainError, ErrorCode } from '@cinetrace/contracts';

const RETRY_AFTER_SECONDS = 1;

/**
 * OTLP exports one project may have in flight at once through a gateway, whatever their size
 * (OTLP_PROJECT_EXPORTS): counted from the request's headers to its answer, so one more is
 * refused (429 with Retry-After, which exporters honour) before its body is read or decoded.
 * Small exports are decoded on the event loop in arrival order; without a bound, a project
 * sending many at once queues every other project's exports behind all of its own.
 */
export class ProjectExportsInFlight {
  private readonly held = new Map<string, number>();

  constructor(private readonly perProject: number) {}

  /** Takes one of `projectId`'s slots, or throws 429 when it holds them all; the answer frees it (once, however often it is called). */
  take(projectId: string): () => void {
    const held = this.held.get(projectId) ?? 0;
    if (held >= this.perProject) {
      throw new DomainError(
        ErrorCode.RateLimited,
        `This project has ${held} exports in flight already, as many as it may at once (OTLP_PROJECT_EXPORTS); retry the export`,
        undefined,
        RETRY_AFTER_SECONDS,
      );
    }
    this.held.set(projectId, held + 1);
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      const left = this.held.get(projectId)! - 1;
      if (left) this.held.set(projectId, left);
      else this.held.delete(projectId);
    };
  }
}
