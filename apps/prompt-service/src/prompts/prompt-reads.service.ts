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
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { listPromptActivity } from '../store/prompt-activity.queries';
import { findRelease } from '../store/prompt-releases.queries';
import { findPromptVersion, listPromptVersions } from '../store/prompt-versions.queries';
import { Prompt } from '../store/prompt.entity';
import { findPrompt, listPrompts, promptExists } from '../store/prompts.queries';
import { toActivityView, toPromptView, toPromptViewAt, toVersionView } from './prompt.views';

/** Reads of prompts, their versions and activity; every query is scoped by the caller's project. */
@Injectable()
export class PromptReadsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async get(request: PromptGetRequest): Promise<PromptView> {
    const { ctx, id, identifier } = request;
    const key = id !== undefined ? { id } : identifier !== undefined ? { identifier } : undefined;
    // By identifier only the live prompt counts: a deleted one freed its identifier.
    const prompt = key && (await findPrompt(this.dataSource.manager, ctx.projectId, key, Boolean(request.includeDeleted && id !== undefined)));
    const name = id !== undefined ? `id '${id}'` : `identifier '${identifier}'`;
    if (!prompt) throw DomainError.notFound(`No prompt with ${name} in this project`);
    const version = await this.versionAsked(prompt, name, request);
    if (version === undefined || version === prompt.version) return toPromptView(prompt);
    const old = await findPromptVersion(this.dataSource.manager, prompt.id, version);
    if (!old) throw DomainError.notFound(`The prompt with ${name} has no version ${version}`);
    return toPromptViewAt(prompt, old);
  }

  /** The version a get names: `version`, or the one `release` points at (`latest`: the newest), or undefined (the newest). */
  private async versionAsked(prompt: Prompt, name: string, { version, release }: PromptGetRequest): Promise<number | undefined> {
    if (release === undefined || release === LATEST_RELEASE) return version;
    const found = await findRelease(this.dataSource.manager, prompt.id, release);
    if (!found) throw DomainError.notFound(`The prompt with ${name} has no release '${release}'`);
    return found.version;
  }

  async list(ctx: ProjectContext, filters: PromptListFilters, page: PageRequest<PromptListKey>): Promise<Page<PromptView, PromptListKey>> {
    if (filters.type !== undefined && !isPromptType(filters.type)) {
      throw DomainError.validation([{ path: 'type', message: `must be one of: ${PROMPT_TYPES.join(', ')}` }]);
    }
    const filter = { includeDeleted: filters.includeDeleted, type: filters.type, label: filters.label, search: filters.q?.toLowerCase() };
    const rows = await listPrompts(this.dataSource.manager, ctx.projectId, filter, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.id);
    return { items: items.map(toPromptView), nextKey };
  }

  async versionsOf(ctx: ProjectContext, id: string, page: PageRequest<PromptVersionKey>): Promise<Page<PromptVersionView, PromptVersionKey>> {
    await this.requireExists(ctx, id);
    const rows = await listPromptVersions(this.dataSource.manager, id, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.version);
    return { items: items.map(toVersionView), nextKey };
  }

  async activityOf(ctx: ProjectContext, id: string, page: PageRequest<PromptActivityKey>): Promise<Page<PromptActivityView, PromptActivityKey>> {
    await this.requireExists(ctx, id);
    const rows = await listPromptActivity(this.dataSource.manager, id, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.id);
    return { items: items.map(toActivityView), nextKey };
  }

  /** History stays readable after a delete, but only within the caller's project. */
  private async requireExists(ctx: ProjectContext, id: string): Promise<void> {
    const found = await promptExists(this.dataSource.manager, ctx.projectId, id);
    if (!found) throw DomainError.notFound(`No prompt with id '${id}' in this project`);
  }
}
