import { DomainError, ErrorCode } from '@cinetrace/contracts';

/** What a refused request is told to wait: about one request's time on a busy service. */
const RETRY_AFTER_SECONDS = 1;

/**
 * At most `perProject` of one kind of work per project at once in this process: one more is
 * refused with 429 and Retry-After (what the refusal says, given how many the project holds),
 * so a project flooding a shared resource is turned away alone while the others go on.
 */
export class PerProjectSlots {
  private readonly held = new Map<string, number>();

  constructor(
    private readonly perProject: number,
    private readonly refusal: (held: number) => string,
  ) {}

  /** Takes one of `projectId`'s slots, or throws 429 when it holds them all; the answer frees it (once, however often it is called). */
  take(projectId: string): () => void {
    const held = this.held.get(projectId) ?? 0;
    if (held >= this.perProject) throw new DomainError(ErrorCode.RateLimited, this.refusal(held), undefined, RETRY_AFTER_SECONDS);
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
