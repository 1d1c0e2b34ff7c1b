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
import { insertRows, isUniqueViolation, toIso } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { insertWithDerivedSlug } from '@cinetrace/slugs';
import { deriveProjectKey } from './project-key';
import { Project } from '../store/project.entity';

@Injectable()
export class ProjectsService {
  constructor(@InjectRepository(Project) private readonly projects: Repository<Project>) {}

  async create(ctx: OrgContext, input: CreateProjectInput): Promise<ProjectView> {
    const now = Date.now();
    const base = { orgId: ctx.orgId, name: input.name, description: input.description ?? '', createdAt: now, updatedAt: now };
    if (input.key) {
      const project = this.projects.create({ ...base, id: newId('prj'), key: input.key });
      await this.insertOrConflict(project, `The project key '${input.key}' is already taken in this organization`);
      return toView(project);
    }
    const derived = deriveProjectKey(input.name);
    return insertWithDerivedSlug(derived, {
      taken: (slug) => this.keysLike(ctx.orgId, slug),
      insert: async (key) => {
        const project = this.projects.create({ ...base, id: newId('prj'), key });
        await insertRows(this.projects.manager, Project, project);
        return toView(project);
      },
      isCollision: isUniqueViolation,
    });
  }

  async list(ctx: OrgContext, filters: ProjectListFilters, page: PageRequest<ProjectListKey>): Promise<Page<ProjectView, ProjectListKey>> {
    const query = this.projects.createQueryBuilder('p').where('p.org_id = :orgId', { orgId: ctx.orgId }).orderBy('p.id', 'DESC').limit(rowsForPage(page));
    // A key restricted to some projects sees only those (the gateway lets it read, never create).
    if (ctx.projectIds) query.andWhere('p.id IN (:...visible)', { visible: ctx.projectIds });
    if (filters.name !== undefined) query.andWhere('p.name = :name', { name: filters.name });
    if (page.after !== undefined) query.andWhere('p.id < :after', { after: page.after });
    const { items, nextKey } = toPage(await query.getMany(), page.limit, (row) => row.id);
    return { items: items.map(toView), nextKey };
  }

  async get(ctx: OrgContext, id: string): Promise<ProjectView> {
    const visible = !ctx.projectIds || ctx.projectIds.includes(id);
    const project = visible ? await this.projects.findOneBy({ id, orgId: ctx.orgId }) : null;
    if (!project) throw DomainError.notFound(`No project with id '${id}'`);
    return toView(project);
  }

  private async insertOrConflict(project: Project, conflictDetail: string): Promise<void> {
    try {
      await insertRows(this.projects.manager, Project, project);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(ErrorCode.Conflict, conflictDetail);
      throw err;
    }
  }

  /** The keys of the organization that are `base` or `base-<anything>`. */
  private async keysLike(orgId: string, base: string): Promise<Set<string>> {
    const rows = await this.projects
      .createQueryBuilder('p')
      .select('p.project_key', 'key')
      .where('p.org_id = :orgId', { orgId })
      .andWhere('(p.project_key = :base OR p.project_key LIKE :prefix)', { base, prefix: `${base}-%` })
      .getRawMany<{ key: string }>();
    return new Set(rows.map((r) => r.key));
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
