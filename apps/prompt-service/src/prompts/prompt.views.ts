import type { PromptActivityView, PromptVersionView, PromptView } from '@cinetrace/contracts';
import { toIso } from '@cinetrace/persistence';
import type { PromptActivity } from '../store/prompt-activity.entity';
import type { PromptVersion } from '../store/prompt-version.entity';
import type { Prompt } from '../store/prompt.entity';

export function toPromptView(p: Prompt): PromptView {
  return {
    id: p.id,
    projectId: p.projectId,
    identifier: p.identifier,
    name: p.name,
    content: p.content,
    type: p.type,
    labels: p.labels,
    metadata: p.metadata,
    variables: p.variables,
    version: p.version,
    createdAt: toIso(p.createdAt),
    updatedAt: toIso(p.updatedAt),
    deletedAt: p.deletedAt === null ? null : toIso(p.deletedAt),
  };
}

/** The prompt as it was at an older version: that version's fields, written at its time. */
export function toPromptViewAt(p: Prompt, v: PromptVersion): PromptView {
  return {
    ...toPromptView(p),
    name: v.name,
    content: v.content,
    labels: v.labels,
    metadata: v.metadata,
    variables: v.variables,
    version: v.version,
    updatedAt: toIso(v.createdAt),
  };
}

export function toVersionView(v: PromptVersion): PromptVersionView {
  return {
    promptId: v.promptId,
    version: v.version,
    name: v.name,
    content: v.content,
    labels: v.labels,
    metadata: v.metadata,
    variables: v.variables,
    createdAt: toIso(v.createdAt),
  };
}

export function toActivityView(a: PromptActivity): PromptActivityView {
  return {
    id: a.id,
    promptId: a.promptId,
    action: a.action,
    version: a.version,
    actor: { type: a.actorType, id: a.actorId },
    at: toIso(a.at),
    changes: a.changes,
  };
}
