import { expect } from '@jest/globals';
import { api } from '@cinetrace/testing';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, repoBin, useScratchDir } from './support/scratch';
import { useStack } from './support/stack-hooks';
import { Content, OpenApiDocument } from './support/openapi-document';
import { aPrompt, inNewProject, PROMPTS } from './support/prompts';

type Media = Content['content'][string];

/**
 * The served OpenAPI document as third-party tools see it: `redocly lint` (recommended
 * rules, redocly.yaml) finds no error. Every answer of the suite is also checked against it
 * (libs/testing, openapi-conformance.ts) and a generated client drives the API
 * (generated-client.e2e-spec.ts). Every operation has examples, each valid against its own
 * schema, so that they cannot drift from the DTOs.
 */
describe('The OpenAPI document', () => {
  const ctx = useStack();
  const scratch = useScratchDir('cinetrace-openapi-');

  it('passes redocly lint with no errors', async () => {
    const doc = await api(ctx.stack.baseUrl).get('/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    const file = join(scratch.path, 'openapi.json');
    writeFileSync(file, doc.text);
    let output: string;
    try {
      output = execFileSync(repoBin('redocly'), ['lint', file, '--config', join(REPO, 'redocly.yaml'), '--format=summary'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      throw new Error(`redocly lint failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
    expect(output).not.toMatch(/^error/m);
  }, 120_000);

  it('says OpenAPI 3.1 and keeps no 3.0-only keyword (nullable) nor a JWT bearer format', async () => {
    const doc = await api(ctx.stack.baseUrl).get<OpenApiDocument>('/api/v1/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.text).not.toContain('"nullable"');
    expect(doc.body.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.body.components.securitySchemes.bearerAuth.bearerFormat).toBeUndefined();
    expect(doc.body.components.securitySchemes.projectKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Project-Key' }));
    expect(doc.body.paths['/api/v1/traces'].get.operationId).toBe('listTraces');
  });

  it('gives every operation an example of its request body and success answers, each valid against its own schema', async () => {
    const doc = (await api(ctx.stack.baseUrl).get<OpenApiDocument>('/api/v1/openapi.json')).body;
    const missing: string[] = [];
    const invalid: string[] = [];
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(doc, DOC_ID);
    for (const { where, pointer, media } of examplesToCheck(doc)) {
      if (!Object.hasOwn(media, 'example')) {
        missing.push(where);
        continue;
      }
      const validate = ajv.compile({ $ref: `${DOC_ID}${pointer}/schema` });
      if (!validate(media.example)) invalid.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(missing).toEqual([]);
    expect(invalid).toEqual([]);
  });

  // A client validating its bodies against the document must not send what the server then
  // refuses: each body here is accepted by both, or refused by both (the server with a 400).
  it('accepts the bodies the server accepts and refuses those it refuses', async () => {
    const doc = (await api(ctx.stack.baseUrl).get<OpenApiDocument>('/api/v1/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(doc, DOC_ID);
    const bodySchema = (path: string, method: string) => ajv.compile({ $ref: `${DOC_ID}#/paths/${escape(path)}/${method}/requestBody/content/application~1json/schema` });
    const project = await inNewProject(ctx.api);
    const cases: Array<{ what: string; path: string; body: unknown; send: (body: unknown) => Promise<{ status: number }> }> = [];
    const prompt = (what: string, labels: unknown) => cases.push({ what, path: PROMPTS, body: aPrompt({ labels }), send: (body) => project.api.post(PROMPTS, body) });
    prompt('prompt labels as written', ['production', 'v2.1', 'eu_west-1']);
    prompt('a prompt label with capitals', ['Production']);
    prompt('a prompt label with a space', ['two words']);
    prompt('a prompt label repeated', ['staging', 'staging']);
    const key = (what: string, projectIds: unknown) =>
      cases.push({ what, path: '/api/v1/api-keys', body: { name: 'openapi check', scopes: ['read'], projectIds }, send: (body) => ctx.api.post('/api/v1/api-keys', body) });
    key('an API key for one project', [project.projectId]);
    key('an API key for a project id with a space', ['prj 1']);
    key('an API key naming its project twice', [project.projectId, project.projectId]);
    const disagreements: string[] = [];
    for (const { what, path, body, send } of cases) {
      const documentAccepts = bodySchema(path, 'post')(body);
      const answer = await send(body);
      if (documentAccepts !== answer.status < 300 || (!documentAccepts && answer.status !== 400)) {
        disagreements.push(`${what}: the document ${documentAccepts ? 'accepts' : 'refuses'} it, the server answers ${answer.status}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});

const DOC_ID = 'https://cinetrace.invalid/openapi.json';
/** Bodies of bytes (protobuf, stored media): no example to give. */
const isBinary = (type: string) => type === 'application/x-protobuf' || /^(video|image|audio)\//.test(type);
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Each media type of each operation's request body and success answers, with its JSON pointer in the document. */
function examplesToCheck(doc: OpenApiDocument): { where: string; pointer: string; media: Media }[] {
  const found: { where: string; pointer: string; media: Media }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation?.responses) continue;
      const at = `#/paths/${escape(path)}/${method}`;
      const parts: [string, string, Content][] = [];
      if (operation.requestBody) parts.push(['request', `${at}/requestBody`, operation.requestBody]);
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status.startsWith('2')) parts.push([status, `${at}/responses/${status}`, response]);
      }
      for (const [label, pointer, part] of parts) {
        for (const [type, media] of Object.entries(part.content ?? {})) {
          if (!isBinary(type)) found.push({ where: `${operation.operationId} ${label} ${type}`, pointer: `${pointer}/content/${escape(type)}`, media });
        }
      }
    }
  }
  return found;
}
