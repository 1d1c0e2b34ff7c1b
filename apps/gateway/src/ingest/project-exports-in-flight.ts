import { PerProjectSlots } from '../limits/per-project-slots';

/**
 * OTLP exports one project may have in flight at once through a gateway, whatever their size
 * (OTLP_PROJECT_EXPORTS): counted from the request's headers to its answer, so one more is
 * refused (429 with Retry-After, which exporters honour) before its body is read or decoded.
 * Small exports are decoded on the event loop in arrival order; without a bound, a project
 * sending many at once queues every other project's exports behind all of its own.
 */
export class ProjectExportsInFlight extends PerProjectSlots {
  constructor(perProject: number) {
    super(perProject, (held) => `This project has ${held} exports in flight already, as many as it may at once (OTLP_PROJECT_EXPORTS); retry the export`);
  }
}
