import type { ProjectContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { CreatePromptInput, UpdatePromptInput } from './prompt.inputs';

export interface PromptCreateRequest {
  ctx: ProjectContext;
  input: CreatePromptInput;
  /** The caller's key has `admin`: only then may it take an identifier whose last prompt had a gated release. Absent: false. */
  mayChangeGate?: boolean;
}

export interface PromptListFilters {
  type?: string;
  label?: string;
  q?: string;
  includeDeleted?: boolean;
}

/** Keyset positions: prompts and activity by id (time-sortable), versions by number. */
export type PromptListKey = string;
export type PromptVersionKey = number;
export type PromptActivityKey = string;

export interface PromptListRequest {
  ctx: ProjectContext;
  filters: PromptListFilters;
  page: PageRequest<PromptListKey>;
}

/** One prompt, by id or by identifier; `version` picks an older version, `release` the version a release points at. */
export interface PromptGetRequest {
  ctx: ProjectContext;
  id?: string;
  identifier?: string;
  version?: number;
  release?: string;
  includeDeleted?: boolean;
}

export interface PromptUpdateRequest {
  ctx: ProjectContext;
  id: string;
  input: UpdatePromptInput;
  /** From `If-Match`: the versions the client accepts to change; absent means any. */
  ifMatch?: number[];
}

export interface PromptDeleteRequest {
  ctx: ProjectContext;
  id: string;
  ifMatch?: number[];
  /** The caller's key has `admin`: only then may it delete a prompt with a gated release. Absent: false. */
  mayChangeGate?: boolean;
}

export interface PromptHistoryRequest<TKey> {
  ctx: ProjectContext;
  id: string;
  page: PageRequest<TKey>;
}
