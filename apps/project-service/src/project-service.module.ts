import { pingController } from '@cinetrace/bus';
import { Patterns, ServiceNames } from '@cinetrace/contracts';
import { LoggingModule } from '@cinetrace/logging';
import { AtRestCipher } from '@cinetrace/secret-crypto';
import { PersistenceModule, serviceStore, type ServiceDataSourceSpec } from '@cinetrace/persistence';
import { DynamicModule, Module } from '@nestjs/common';
import { AuthBusController } from './auth/auth.bus-controller';
import { AuthService } from './auth/auth.service';
import { projectServiceMigrations } from './migrations';
import { ApiKey } from './store/api-key.entity';
import { ApiKeysService } from './organizations/api-keys.service';
import { BootstrapService } from './organizations/bootstrap.service';
import { Organization } from './store/organization.entity';
import { OrganizationsBusController } from './organizations/organizations.bus-controller';
import { OrganizationsService } from './organizations/organizations.service';
import { ProjectServiceEnv } from './project-service.env';
import { Project } from './store/project.entity';
import { ProjectsBusController } from './projects/projects.bus-controller';
import { ProjectsService } from './projects/projects.service';
import { EnvSecrets } from './secrets/env-secrets';
import { SecretActivity } from './store/secret-activity.entity';
import { SecretIntake, secretsKeyOf } from './secrets/secret-cipher';
import { SecretReleaseService } from './secrets/secret-release.service';
import { Secret } from './store/secret.entity';
import { SecretsBusController } from './secrets/secrets.bus-controller';
import { SecretReferencesService } from './secrets/secret-references.service';
import { SecretsService } from './secrets/secrets.service';

export const PROJECT_SERVICE = ServiceNames.ProjectService;
const entities = [Organization, ApiKey, Project, Secret, SecretActivity];

/** Organizations, API keys, projects and secrets; answers on the bus in either run mode. */
@Module({})
export class ProjectServiceModule {
  static register(env: ProjectServiceEnv, processEnv: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: ProjectServiceModule,
      imports: [LoggingModule.forApp(PROJECT_SERVICE, env.LOG_LEVEL), PersistenceModule.forService(projectServiceStore(env))],
      controllers: [pingController(Patterns.ProjectPing), ProjectsBusController, AuthBusController, OrganizationsBusController, SecretsBusController],
      providers: [
        { provide: ProjectServiceEnv, useValue: env },
        { provide: AtRestCipher, useFactory: () => new AtRestCipher(secretsKeyOf(env)) },
        { provide: SecretIntake, useFactory: () => new SecretIntake(secretsKeyOf(env)) },
        // Only the names OUTBOUND_ENV_SECRETS lists (or their <NAME>_FILE) are ever read from the environment handed on here.
        { provide: EnvSecrets, useValue: EnvSecrets.fromEnvironment(env.OUTBOUND_ENV_SECRETS, processEnv) },
        ProjectsService,
        AuthService,
        ApiKeysService,
        OrganizationsService,
        BootstrapService,
        SecretsService,
        SecretReferencesService,
        SecretReleaseService,
      ],
    };
  }
}

/** Where project-service keeps its data, as its module and its migration step (migrate.ts) open it. */
export const projectServiceStore = (env: ProjectServiceEnv): ServiceDataSourceSpec => serviceStore(PROJECT_SERVICE, env, { entities, migrations: projectServiceMigrations });
