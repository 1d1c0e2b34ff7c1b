import { pingController } from '@cinetrace/bus';
import { Patterns } from '@cinetrace/contracts';
import { LoggingModule } from '@cinetrace/logging';
import { PersistenceModule, serviceStore, type ServiceDataSourceSpec } from '@cinetrace/persistence';
import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthBusController } from './auth/auth.bus-controller';
import { AuthService } from './auth/auth.service';
import { projectServiceMigrations } from './migrations';
import { ApiKey } from './organizations/api-key.entity';
import { ApiKeysService } from './organizations/api-keys.service';
import { BootstrapService } from './organizations/bootstrap.service';
import { Organization } from './organizations/organization.entity';
import { OrganizationsBusController } from './organizations/organizations.bus-controller';
import { OrganizationsService } from './organizations/organizations.service';
import { ProjectServiceEnv } from './project-service.env';
import { Project } from './projects/project.entity';
import { ProjectsBusController } from './projects/projects.bus-controller';
import { ProjectsService } from './projects/projects.service';

export const PROJECT_SERVICE = 'project-service';
const entities = [Organization, ApiKey, Project];

/** Organizations, API keys and projects; answers on the bus in either run mode. */
@Module({})
export class ProjectServiceModule {
  static register(env: ProjectServiceEnv): DynamicModule {
    return {
      module: ProjectServiceModule,
      imports: [
        LoggingModule.forApp(PROJECT_SERVICE, env.LOG_LEVEL),
        PersistenceModule.forService(projectServiceStore(env)),
        TypeOrmModule.forFeature(entities),
      ],
      controllers: [pingController(Patterns.ProjectPing), ProjectsBusController, AuthBusController, OrganizationsBusController],
      providers: [
        { provide: ProjectServiceEnv, useValue: env },
        ProjectsService,
        AuthService,
        ApiKeysService,
        OrganizationsService,
        BootstrapService,
      ],
    };
  }
}

/** Where project-service keeps its data, as its module and its migration step (migrate.ts) open it. */
export const projectServiceStore = (env: ProjectServiceEnv): ServiceDataSourceSpec => serviceStore(PROJECT_SERVICE, env, { entities, migrations: projectServiceMigrations });
