import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { Injectable } from '@nestjs/common';
import { GatewayEnv } from '../gateway.env';

/** What a refused upload is told to wait: one upload's time, roughly, on a busy service. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The media a project may be storing at once through this gateway (`POST /api/v1/media`,
 * bytes or `{ url }`): MEDIA_PROJECT_UPLOADS. One project's flood of uploads would otherwise
 * take the gateway's loop and disk and media-service's probes from everyone; past its share it
 * is answered 429 with Retry-After before its body is read, and the others go on.
 */
@Injectable()
export class MediaUploadSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly env: GatewayEnv) {}

  /** Takes one of `projectId`'s slots, or throws 429 when it holds them all; the answer frees it (once, however often it is called). */
  take(projectId: string): () => void {
    const held = this.held.get(projectId) ?? 0;
    if (held >= this.env.MEDIA_PROJECT_UPLOADS) {
      throw new DomainError(
        ErrorCode.RateLimited,
        `This project is storing ${held} media already, as many as it may at once (MEDIA_PROJECT_UPLOADS); retry once one is stored`,
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
