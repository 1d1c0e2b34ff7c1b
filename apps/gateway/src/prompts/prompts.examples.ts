import type {
  CreatePromptInput,
  DeletedPromptView,
  PromptActivityView,
  PromptVersionView,
  PromptView,
  UpdatePromptInput,
} from '@cinetrace/contracts';
import { EXAMPLE } from '../ops/openapi/example-ids';
import { listPage, type ExampleTable } from '../ops/openapi/operation-examples';

const DAWN = 'A slow dolly shot of {{subject}} at dawn';
const DUSK = 'A slow dolly shot of {{subject}} at dusk';

const prompt = {
  id: EXAMPLE.promptId,
  projectId: EXAMPLE.projectId,
  identifier: 'intro-shot',
  name: 'Intro Shot',
  content: DAWN,
  type: 'text-to-video',
  labels: ['production'],
  metadata: {},
  variables: ['subject'],
  version: 1,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
  deletedAt: null,
} satisfies PromptView;
const updated = { ...prompt, content: DUSK, version: 2, updatedAt: EXAMPLE.updatedAt } satisfies PromptView;

const version = (of: PromptView) =>
  ({
    promptId: of.id,
    version: of.version,
    name: of.name,
    content: of.content,
    labels: of.labels,
    metadata: of.metadata,
    variables: of.variables,
    createdAt: of.updatedAt,
  }) satisfies PromptVersionView;

const updatedActivity = {
  id: 'act_01jh8z6v9q3m2r7x5c4b1n0k8e',
  promptId: EXAMPLE.promptId,
  action: 'updated',
  version: 2,
  actor: { type: 'api_key', id: EXAMPLE.apiKeyId },
  at: EXAMPLE.updatedAt,
  changes: { content: { from: DAWN, to: DUSK } },
} satisfies PromptActivityView;

export const PROMPT_EXAMPLES: ExampleTable = {
  createPrompt: {
    request: { name: 'Intro Shot', content: DAWN, type: 'text-to-video', labels: ['production'] } satisfies CreatePromptInput,
    response: prompt,
  },
  listPrompts: { response: listPage([prompt]) },
  getPromptByIdentifier: { response: prompt },
  getPrompt: { response: prompt },
  updatePrompt: { request: { content: DUSK } satisfies UpdatePromptInput, response: updated },
  deletePrompt: { response: { id: EXAMPLE.promptId, deleted: true, deletedAt: EXAMPLE.updatedAt } satisfies DeletedPromptView },
  listPromptVersions: { response: listPage([version(updated), version(prompt)]) },
  listPromptActivity: { response: listPage([updatedActivity]) },
};
