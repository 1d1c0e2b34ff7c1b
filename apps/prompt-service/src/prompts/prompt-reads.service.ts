import {
  DomainError,
  isPromptType,
  LATEST_RELEASE,
  Page,
  PageRequest,
  ProjectContext,
  PROMPT_TYPES,
  PromptActivityKey,
  PromptActivityView,
  PromptGetRequest,
  PromptListFilters,
  PromptListKey,
  PromptVersionKey,
  PromptVersionView,
  PromptView,
  rowsForPage,
  toPage,
} from '@cinetrace/contracts';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PromptRelease } from '../store/prompt-release.entity';
import { PromptActivity } from '../store/prompt-activity.entity';
import { PromptVersion } from '../store/prompt-version.entity';
import { Prompt } from '../store/prompt.entity';
import { toActivityView, toPromptView, toPromptViewAt, toVersionView } from './prompt.views';

/** Reads of prompts, their versions and activity; every query is scoped by the caller's project. */
@Injectable()
export class PromptReadsService {
  constructor(
    @InjectRepository(Prompt) private readonly prompts: Repository<Prompt>,
    @InjectRepository(PromptVersion) private readonly versions: Repository<PromptVersion>,
    @InjectRepository(PromptActivity) private readonly activity: Repository<PromptActivity>,
    @InjectRepository(PromptRelease) private readonly releases: Repository<PromptRelease>,
  ) {}

  async get(request: PromptGetRequest): Promise<PromptView> {
    const { ctx, id, identifier } = request;
    const query = this.prompts.createQueryBuilder('p').where('p.project_id = :projectId', { projectId: ctx.projectId });
    if (id !== undefined) query.andWhere('p.id = :id', { id });
    else query.andWhere('p.identifier = :identifier', { identifier });
    // By identifier only the live prompt counts: a deleted one freed its identifier.
    if (!(request.includeDeleted && id !== undefined)) query.andWhere('p.deleted_at IS NULL');
    const prompt = await query.getOne();
    const name = id !== undefined ? `id '${id}'` : `identifier '${identifier}'`;
    if (!prompt) throw DomainError.notFound(`No prompt with ${name} in this project`);
    const version = await this.versionAsked(prompt, name, request);
    if (version === undefined || version === prompt.version) return toPromptView(prompt);
    const old = await this.versions.findOneBy({ promptId: prompt.id, version });
    if (!old) throw DomainError.notFound(`The prompt with ${name} has no version ${version}`);
    return toPromptViewAt(prompt, old);
  }

  /** The version a get names: `version`, or the one `release` points at (`latest`: the newest), or undefined (the newest). */
  private async versionAsked(prompt: Prompt, name: string, { version, release }: PromptGetRequest): Promise<number | undefined> {
    if (release === undefined || release === LATEST_RELEASE) return version;
    const found = await this.releases.findOneBy({ promptId: prompt.id, name: release });
    if (!found) throw DomainError.notFound(`The prompt with ${name} has no release '${release}'`);
    return found.version;
  }

  async list(ctx: ProjectContext, filters: PromptListFilters, page: PageRequest<PromptListKey>): Promise<Page<PromptView, PromptListKey>> {
    if (filters.type !== undefined && !isPromptType(filters.type)) {
      throw DomainError.validation([{ path: 'type', message: `must be one of: ${PROMPT_TYPES.join(', ')}` }]);
    }
    const query = this.prompts.createQueryBuilder('p').where('p.project_id = :projectId', { projectId: ctx.projectId }).orderBy('p.id', 'DESC').limit(rowsForPage(page));
    if (!filters.includeDeleted) query.andWhere('p.deleted_at IS NULL');
    if (filters.type !== undefined) query.andWhere('p.type = :type', { type: filters.type });
    if (filters.label !== undefined) {
      query.andWhere('EXISTS (SELECT 1 FROM prompt_labels l WHERE l.prompt_id = p.id AND l.label = :label)', {
        label: filters.label,
      });
    }
    if (filters.q !== undefined && filters.q !== '') {
      query.andWhere("(LOWER(p.name) LIKE :q ESCAPE '\\' OR LOWER(p.identifier) LIKE :q ESCAPE '\\')", {
        q: `%${escapeLike(filters.q.toLowerCase())}%`,
      });
    }
    if (page.after !== undefined) query.andWhere('p.id < :after', { after: page.after });
    const { items, nextKey } = toPage(await query.getMany(), page.limit, (row) => row.id);
    return { items: items.map(toPromptView), nextKey };
  }

  async versionsOf(ctx: ProjectContext, id: string, page: PageRequest<PromptVersionKey>): Promise<Page<PromptVersionView, PromptVersionKey>> {
    await this.requireExists(ctx, id);
    const query = this.versions.createQueryBuilder('v').where('v.prompt_id = :id', { id }).orderBy('v.version', 'DESC').limit(rowsForPage(page));
    if (page.after !== undefined) query.andWhere('v.version < :after', { after: page.after });
    const { items, nextKey } = toPage(await query.getMany(), page.limit, (row) => row.version);
    return { items: items.map(toVersionView), nextKey };
  }

  async activityOf(ctx: ProjectContext, id: string, page: PageRequest<PromptActivityKey>): Promise<Page<PromptActivityView, PromptActivityKey>> {
    await this.requireExists(ctx, id);
    const query = this.activity.createQueryBuilder('a').where('a.prompt_id = :id', { id }).orderBy('a.id', 'DESC').limit(rowsForPage(page));
    if (page.after !== undefined) query.andWhere('a.id < :after', { after: page.after });
    const { items, nextKey } = toPage(await query.getMany(), page.limit, (row) => row.id);
    return { items: items.map(toActivityView), nextKey };
  }

  /** History stays readable after a delete, but only within the caller's project. */
  private async requireExists(ctx: ProjectContext, id: string): Promise<void> {
    const found = await this.prompts.existsBy({ id, projectId: ctx.projectId });
    if (!found) throw DomainError.notFound(`No prompt with id '${id}' in this project`);
  }
}

/** `%`, `_` and `\` in a search term are literal characters, not LIKE wildcards. */
function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}
