import { BusController, Handles } from '@cinetrace/bus';
import { EvaluationsRecordRequest, Patterns } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { EvaluationsService } from './evaluations.service';

/** Bus adapter for the evaluation facts benchmark-service pushes. */
@BusController()
export class EvaluationsBusController {
  constructor(private readonly evaluations: EvaluationsService) {}

  @Handles(Patterns.EvaluationsRecord)
  record(@Payload() request: EvaluationsRecordRequest) {
    return this.evaluations.record(request);
  }
}
