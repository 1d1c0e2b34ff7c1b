import { Injectable } from '@nestjs/common';
import { GatewayEnv } from '../gateway.env';
import { PerProjectSlots } from '../limits/per-project-slots';

/**
 * The media a project may be storing at once through this gateway (`POST /api/v1/media`,
 * bytes or `{ url }`): MEDIA_PROJECT_UPLOADS. One project's flood of uploads would otherwise
 * take the gateway's loop and disk and media-service's probes from everyone; past its share it
 * is answered 429 with Retry-After before its body is read, and the others go on.
 */
@Injectable()
export class MediaUploadSlots extends PerProjectSlots {
  constructor(env: GatewayEnv) {
    super(env.MEDIA_PROJECT_UPLOADS, (held) => `This project is storing ${held} media already, as many as it may at once (MEDIA_PROJECT_UPLOADS); retry once one is stored`);
  }
}
