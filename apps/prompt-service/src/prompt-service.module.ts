import { pingController } from '@cinetrace/bus';
import { Patterns, ServiceNames } from '@cinetrace/contracts';
import { LoggingModule } from '@cinetrace/logging';
import { PersistenceModule, serviceStore, type ServiceDataSourceSpec } from '@cinetrace/persistence';
import { DynamicModule, Module } from '@nestjs/common';
import { promptServiceMigrations } from './migrations';
import { PromptServiceEnv } from './prompt-service.env';
import { PromptActivity } from './store/prompt-activity.entity';
import { PromptLabel } from './store/prompt-label.entity';
import { PromptRendersService } from './prompts/prompt-renders.service';
import { EvaluationsBusController } from './releases/evaluations.bus-controller';
import { EvaluationsService } from './releases/evaluations.service';
import { GateEvidenceReader } from './releases/gate-evidence';
import { PromptRelease } from './store/prompt-release.entity';
import { ReleasesBusController } from './releases/releases.bus-controller';
import { ReleasesService } from './releases/releases.service';
import { PromptReadsService } from './prompts/prompt-reads.service';
import { PromptVersion } from './store/prompt-version.entity';
import { Prompt } from './store/prompt.entity';
import { PromptsBusController } from './prompts/prompts.bus-controller';
import { PromptsService } from './prompts/prompts.service';

export const PROMPT_SERVICE = ServiceNames.PromptService;
const entities = [Prompt, PromptVersion, PromptLabel, PromptActivity, PromptRelease];

/** Prompts, their versions, releases and activity; answers on the bus in either run mode. */
@Module({})
export class PromptServiceModule {
  static register(env: PromptServiceEnv): DynamicModule {
    return {
      module: PromptServiceModule,
      imports: [LoggingModule.forApp(PROMPT_SERVICE, env.LOG_LEVEL), PersistenceModule.forService(promptServiceStore(env))],
      controllers: [pingController(Patterns.PromptPing), PromptsBusController, ReleasesBusController, EvaluationsBusController],
      providers: [{ provide: PromptServiceEnv, useValue: env }, PromptsService, PromptReadsService, PromptRendersService, ReleasesService, GateEvidenceReader, EvaluationsService],
    };
  }
}

/** Where prompt-service keeps its data, as its module and its migration step (migrate.ts) open it. */
export const promptServiceStore = (env: PromptServiceEnv): ServiceDataSourceSpec => serviceStore(PROMPT_SERVICE, env, { entities, migrations: promptServiceMigrations });
