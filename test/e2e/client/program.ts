import { createApiClient, type components } from '@cinetrace/api-client';

export type ProblemCode = components['schemas']['Problem']['code'];

export interface ClientRun {
  projectId: string;
  promptVersion: number;
  traceStatus: number;
  spanNames: string[];
  /** The trace's metadata, its span's attributes and its event's attributes, as read back. */
  metadata: unknown;
  spanAttributes: unknown;
  eventAttributes: unknown;
  promptLabels: string[];
  promptMetadata: unknown;
  listedIds: string[];
  problemCode: ProblemCode | undefined;
}

/**
 * A small program on the client generated from the served document (@cinetrace/api-client:
 * openapi-typescript types, openapi-fetch calls): what a third-party integrator would
 * write. It must compile under `tsc --strict` and run against the service
 * (generated-client.e2e-spec.ts).
 */
export async function runGeneratedClient(baseUrl: string, apiKey: string): Promise<ClientRun> {
  const org = createApiClient({ baseUrl, apiKey });
  const project = await org.POST('/api/v1/projects', { body: { name: 'Generated client' } });
  if (!project.data) throw new Error(`createProject: ${JSON.stringify(project.error)}`);

  const api = createApiClient({ baseUrl, apiKey, projectKey: project.data.key });
  const prompt = await api.POST('/api/v1/prompts', {
    body: { name: 'Intro shot', content: 'A slow dolly shot of {{subject}}', type: 'text-to-video', labels: ['staging'], metadata: { owner: 'ops', fps: 24 } },
  });
  if (!prompt.data) throw new Error(`createPrompt: ${JSON.stringify(prompt.error)}`);

  const startTime = new Date().toISOString();
  const trace = await api.POST('/api/v1/traces', {
    params: { header: { Prefer: 'wait' } },
    body: {
      name: 'generated client',
      tags: ['client', 'e2e'],
      metadata: { pipeline: 'intro', shot: 3 },
      spans: [
        {
          id: 'root',
          name: 'render',
          kind: 'generation',
          startTime,
          attributes: { 'gen.seed': 42, 'gen.sampler': 'ddim' },
          events: [{ name: 'first frame', time: startTime, attributes: { frame: 0 } }],
        },
      ],
    },
  });
  if (!trace.data) throw new Error(`ingestTrace: ${JSON.stringify(trace.error)}`);

  const read = await api.GET('/api/v1/traces/{id}', { params: { path: { id: trace.data.id } } });
  if (!read.data) throw new Error(`getTrace: ${JSON.stringify(read.error)}`);

  const listed = await api.GET('/api/v1/traces', { params: { query: { name: 'generated client', tags: ['client', 'e2e'], limit: 10 } } });
  if (!listed.data) throw new Error(`listTraces: ${JSON.stringify(listed.error)}`);

  const missing = await api.GET('/api/v1/prompts/{id}', { params: { path: { id: 'prm_00000000000000000000000000' } } });
  return {
    projectId: project.data.id,
    promptVersion: prompt.data.version,
    traceStatus: trace.response.status,
    spanNames: read.data.spans.map((span) => span.name),
    metadata: read.data.metadata,
    spanAttributes: read.data.spans[0]?.attributes,
    eventAttributes: read.data.spans[0]?.events?.[0]?.attributes,
    promptLabels: prompt.data.labels,
    promptMetadata: prompt.data.metadata,
    listedIds: listed.data.data.map((summary) => summary.id),
    problemCode: missing.error?.code,
  };
}
