import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { GatewayEnv } from '../gateway.env';
import { MediaUploadSlots } from './media-upload-slots';

const slots = (perProject: number) => new MediaUploadSlots(Object.assign(new GatewayEnv(), { MEDIA_PROJECT_UPLOADS: perProject }));

const refusalOf = (take: () => unknown): DomainError => {
  try {
    take();
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('not refused');
};

describe('MediaUploadSlots', () => {
  it("refuses a project past its uploads in flight (429 rate_limited, Retry-After), and never another project's", () => {
    const uploads = slots(2);
    uploads.take('a');
    uploads.take('a');
    const refusal = refusalOf(() => uploads.take('a'));
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: ErrorCode.RateLimited, retryAfter: 1 });
    expect(refusal.detail).toMatch(/MEDIA_PROJECT_UPLOADS/);
    expect(() => uploads.take('b')).not.toThrow();
  });

  it('gives the slot back when the upload is answered, once however often it is freed', () => {
    const uploads = slots(1);
    const free = uploads.take('a');
    free();
    free();
    const again = uploads.take('a');
    expect(() => uploads.take('a')).toThrow(DomainError);
    again();
    expect(() => uploads.take('a')).not.toThrow();
  });
});
