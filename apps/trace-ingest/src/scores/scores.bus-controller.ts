import { BusController, Handles } from '@cinetrace/bus';
import {
  Patterns,
  type ScoreBatchRequest,
  type ScoreConfigCreateRequest,
  type ScoreConfigListRequest,
  type ScoreConfigUpdateRequest,
  type ScoreCreateRequest,
  type ScoreDeleteRequest,
  type ScoreListRequest,
} from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { ScoresService } from './scores.service';

/** Bus adapter for the scores the API writes and reads, and their configs. */
@BusController()
export class ScoresBusController {
  constructor(private readonly scores: ScoresService) {}

  @Handles(Patterns.ScoreCreate)
  create(@Payload() request: ScoreCreateRequest) {
    return this.scores.create(request);
  }

  @Handles(Patterns.ScoreBatch)
  batch(@Payload() request: ScoreBatchRequest) {
    return this.scores.batch(request);
  }

  @Handles(Patterns.ScoreList)
  list(@Payload() request: ScoreListRequest) {
    return this.scores.list(request);
  }

  @Handles(Patterns.ScoreDelete)
  delete(@Payload() request: ScoreDeleteRequest) {
    return this.scores.delete(request);
  }

  @Handles(Patterns.ScoreConfigCreate)
  createConfig(@Payload() request: ScoreConfigCreateRequest) {
    return this.scores.createConfig(request);
  }

  @Handles(Patterns.ScoreConfigList)
  listConfigs(@Payload() request: ScoreConfigListRequest) {
    return this.scores.listConfigs(request);
  }

  @Handles(Patterns.ScoreConfigUpdate)
  updateConfig(@Payload() request: ScoreConfigUpdateRequest) {
    return this.scores.updateConfig(request);
  }
}
