import {
  CreateProjectInput,
  DomainError,
  ErrorCode,
  OrgContext,
  Page,
  PageRequest,
  ProjectListFilters,
  ProjectListKey,
  ProjectView,
  rowsForPage,
  toPage,
} from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { isUniqueViolation, toIso } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { insertWithDerivedSlug } from '@cinetrace/slugs';
import { deriveProjectKey } from './project-key';
import { Project } from '../store/project.entity';
import { findProject, insertProject, listProjects, projectKeysLike } from '../store/projects.queries';

@Injectable()
export class ProjectsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(ctx: OrgContext, input: CreateProjectInput): Promise<ProjectView> {
    const now = Date.now();
    const base = { orgId: ctx.orgId, name: input.name, description: input.description ?? '', createdAt: now, updatedAt: now };
    if (input.key) {
      const project: Project = { ...base, id: newId('prj'), key: input.key };
      await this.insertOrConflict(project, `The project key '${input.key}' is already taken in this organization`);
      return toView(project);
    }
    const derived = deriveProjectKey(input.name);
    return insertWithDerivedSlug(derived, {
      taken: (slug) => projectKeysLike(this.dataSource.manager, ctx.orgId, slug),
      insert: async (key) => {
        const project: Project = { ...base, id: newId('prj'), key };
        await insertProject(this.dataSource.manager, project);
        return toView(project);
      },
      isCollision: isUniqueViolation,
    });
  }

  async list(ctx: OrgContext, filters: ProjectListFilters, page: PageRequest<ProjectListKey>): Promise<Page<ProjectView, ProjectListKey>> {
    // A key restricted to some projects sees only those (the gateway lets it read, never create).
    const filter = { name: filters.name, ...(ctx.projectIds ? { visible: ctx.projectIds } : {}) };
    const rows = await listProjects(this.dataSource.manager, ctx.orgId, filter, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.id);
    return { items: items.map(toView), nextKey };
  }

  async get(ctx: OrgContext, id: string): Promise<ProjectView> {
    const visible = !ctx.projectIds || ctx.projectIds.includes(id);
    const project = visible ? await findProject(this.dataSource.manager, ctx.orgId, id) : null;
    if (!project) throw DomainError.notFound(`No project with id '${id}'`);
    return toView(project);
  }

  private async insertOrConflict(project: Project, conflictDetail: string): Promise<void> {
    try {
      await insertProject(this.dataSource.manager, project);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(ErrorCode.Conflict, conflictDetail);
      throw err;
    }
  }
}

function toView(p: Project): ProjectView {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    key: p.key,
    createdAt: toIso(p.createdAt),
    updatedAt: toIso(p.updatedAt),
  };
}
