import type { CreateProjectInput, ProjectView } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';

const project = {
  id: EXAMPLE.projectId,
  name: 'Video Gen / Prod',
  description: '',
  key: EXAMPLE.projectKey,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
} satisfies ProjectView;

export const PROJECT_EXAMPLES: ExampleTable = {
  createProject: { request: { name: 'Video Gen / Prod', key: EXAMPLE.projectKey } satisfies CreateProjectInput, response: project },
  listProjects: { response: listPage([project]) },
  getProject: { response: project },
};
