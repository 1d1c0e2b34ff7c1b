import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { appendFileSync } from 'node:fs';

/**
 * Checks every answer the e2e suite receives against the OpenAPI document the service
 * serves: the status is one the operation declares, the content type one it declares for
 * that status, the body valid against its schema (Ajv, JSON Schema 2020-12), its required
 * headers present. An answer no operation describes (an unknown route or method) must
 * still be a problem (application/problem+json, the Problem schema).
 * E2E_OPENAPI_LOG=<file> appends one line per checked answer (to count them).
 */
export const OPENAPI_PATH = '/api/v1/openapi.json';
const DOC_ID = 'https://cinetrace.invalid/openapi.json';
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/;

/** Paths served beside the API that no operation describes: the document's page and its YAML form. */
const UNDESCRIBED = [/^\/docs(?:\/|$)/, /^\/api\/v1\/openapi\.yaml$/];
/** Refusals before any route is matched (Node's parser, time limits, routing): a problem, whatever the path. */
const BEFORE_ROUTING = new Set([405, 408, 414, 431]);

/** The parts of the OpenAPI document read here; a `$ref` is followed through resolve(). */
type Reference = { $ref?: string };
type HeaderObject = Reference & { required?: boolean };
type ResponseObject = Reference & { headers?: Record<string, HeaderObject>; content?: Record<string, { schema?: unknown }> };
type OperationObject = { operationId?: string; responses: Record<string, ResponseObject | undefined> };
type OpenApiDocument = { paths: Record<string, Record<string, OperationObject | undefined>> };

interface Operation {
  template: string;
  pattern: RegExp;
  params: number;
  methods: Record<string, OperationObject | undefined>;
}

class Conformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly operations: Operation[];

  constructor(private readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, DOC_ID);
    this.operations = Object.entries(doc.paths)
      .map(([template, methods]) => ({
        template,
        params: (template.match(/\{/g) ?? []).length,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
        methods,
      }))
      // Static segments first, as the router matches them (`by-identifier/{identifier}` before `{id}/versions`).
      .sort((a, b) => a.params - b.params);
  }

  /** The mismatches of one answer; empty when it conforms. */
  check(method: string, url: URL, status: number, headers: Headers, text: string): string[] {
    // The router ignores a trailing slash (`/api/v1/projects/` is the list), so the document's path is the one without it.
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    if (UNDESCRIBED.some((p) => p.test(path))) return [];
    const operation = this.operations.find((o) => o.pattern.test(path) && o.methods[method.toLowerCase()]);
    const declared = operation?.methods[method.toLowerCase()];
    if (!declared || (BEFORE_ROUTING.has(status) && !declared.responses[String(status)])) {
      return this.checkBody('#/components/schemas/Problem', 'application/problem+json', headers, text, `${method} ${path} (no operation) ${status}`);
    }
    const where = `${declared.operationId} ${status}`;
    let response = declared.responses[String(status)] ?? declared.responses[`${String(status)[0]}XX`] ?? declared.responses.default;
    if (!response) return [`${where}: status ${status} is not declared (declared: ${Object.keys(declared.responses).join(', ')})`];
    let pointer = `#/paths/${escape(operation!.template)}/${method.toLowerCase()}/responses/${status}`;
    if (response.$ref) {
      pointer = response.$ref;
      response = this.resolve(response.$ref) as ResponseObject;
    }
    const errors: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const resolved = (header.$ref ? this.resolve(header.$ref) : header) as HeaderObject;
      if (resolved.required && !headers.has(name)) errors.push(`${where}: header ${name} is missing`);
    }
    if (method === 'HEAD') return errors;
    const content = response.content;
    if (!content) return text === '' ? errors : [...errors, `${where}: a body where none is declared: ${text.slice(0, 200)}`];
    const answered = mediaType(headers);
    // A declared media type range (`video/*`) covers every type of its kind, as OpenAPI's content map allows.
    const type = Object.hasOwn(content, answered) ? answered : `${answered.split('/')[0]}/*`;
    if (!Object.hasOwn(content, type)) return [...errors, `${where}: content type '${answered}' is not declared (declared: ${Object.keys(content).join(', ')})`];
    if (!content[type].schema || type !== answered) return errors;
    return [...errors, ...this.checkBody(`${pointer}/content/${escape(type)}/schema`, type, headers, text, where)];
  }

  private checkBody(pointer: string, expectedType: string, headers: Headers, text: string, where: string): string[] {
    const type = mediaType(headers);
    if (type !== expectedType) return [`${where}: content type '${type}', not '${expectedType}': ${text.slice(0, 200)}`];
    if (!JSON_TYPE.test(type)) return [];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`${where}: the body is not JSON: ${text.slice(0, 200)}`];
    }
    const validate = this.validator(pointer);
    if (validate(body)) return [];
    const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    return [`${where}: the body does not match ${pointer}: ${problems.join('; ')}; body: ${text.slice(0, 300)}`];
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private resolve(ref: string): unknown {
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
  }
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const mediaType = (headers: Headers) => (headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();

const checkers = new Map<string, Conformance>();

/** The checker for the service at `origin`, once its document could be read (not before it serves, nor for an app without one). */
async function checkerFor(origin: string): Promise<Conformance | undefined> {
  const known = checkers.get(origin);
  if (known) return known;
  try {
    const response = await fetch(new URL(OPENAPI_PATH, origin), { signal: AbortSignal.timeout(10_000) });
    if (response.status !== 200) return undefined;
    const checker = new Conformance((await response.json()) as OpenApiDocument);
    checkers.set(origin, checker);
    return checker;
  } catch {
    return undefined;
  }
}

export const conformanceChecksOn = () => process.env.E2E_OPENAPI_CHECK !== 'off';

/** Throws when the answer does not conform to the document of the service that gave it. */
export async function assertConformsToOpenApi(method: string, url: URL, status: number, headers: Headers, text: string): Promise<void> {
  if (!conformanceChecksOn()) return;
  const checker = await checkerFor(url.origin);
  if (!checker) return;
  const mismatches = checker.check(method.toUpperCase(), url, status, headers, text);
  if (process.env.E2E_OPENAPI_LOG) appendFileSync(process.env.E2E_OPENAPI_LOG, `${mismatches.length ? 'MISMATCH' : 'ok'} ${method} ${url.pathname} ${status}\n`);
  if (mismatches.length) throw new Error(`The answer does not conform to the OpenAPI document: ${mismatches.join(' | ')}`);
}
