import type {
  CreatePromptInput,
  DeletedPromptView,
  MoveReleaseInput,
  PromptDiffView,
  PromptReleaseListView,
  PromptReleaseView,
  RenderedPromptView,
  RenderPromptInput,
  PromptActivityView,
  PromptVersionView,
  PromptView,
  UpdatePromptInput,
} from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';

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

const gate = { benchmarkId: EXAMPLE.benchmarkId, thresholds: { exact_match: 0.8 } };
const production = {
  name: 'production',
  version: 2,
  gate: { ...gate, datasetVersion: 3 },
  updatedAt: EXAMPLE.updatedAt,
  updatedBy: { type: 'api_key', id: EXAMPLE.apiKeyId },
} satisfies PromptReleaseView;
const staging = { ...production, name: 'staging', version: 2, gate: null } satisfies PromptReleaseView;

const contentDiff = ['===================================================================', '--- version 1', '+++ version 2', '@@ -1,1 +1,1 @@', `-${DAWN}`, `+${DUSK}`, ''].join(
  '\n',
);

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
  listPromptReleases: { response: { data: [production, staging], nextCursor: null } satisfies PromptReleaseListView },
  movePromptRelease: { request: { version: 2, gate } satisfies MoveReleaseInput, response: production },
  diffPromptVersions: { response: { from: 1, to: 2, changes: { content: { from: DAWN, to: DUSK } }, contentDiff } satisfies PromptDiffView },
  renderPrompt: {
    request: { variables: { subject: 'a lighthouse' }, release: 'production' } satisfies RenderPromptInput,
    response: { version: 2, content: 'A slow dolly shot of a lighthouse at dusk', variables: ['subject'] } satisfies RenderedPromptView,
  },
};
