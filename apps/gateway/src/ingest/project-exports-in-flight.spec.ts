import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { ProjectExportsInFlight } from './project-exports-in-flight';

describe('ProjectExportsInFlight', () => {
  it("refuses a project past its exports in flight (429 rate_limited, Retry-After), never another project's, and frees each slot once", () => {
    const inFlight = new ProjectExportsInFlight(2);
    const free = inFlight.take('a');
    inFlight.take('a');
    let refusal: unknown;
    try {
      inFlight.take('a');
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: ErrorCode.RateLimited, retryAfter: 1 });
    expect((refusal as DomainError).detail).toMatch(/OTLP_PROJECT_EXPORTS/);
    expect(() => inFlight.take('b')).not.toThrow();
    free();
    free();
    expect(() => inFlight.take('a')).not.toThrow();
    expect(() => inFlight.take('a')).toThrow(DomainError);
  });
});
