import { BUS_REQUEST_SHAPES, DomainError, type BusRequestShape, type FieldError, type Pattern } from '@cinetrace/contracts';
import { checkInput } from '@cinetrace/validation';
import { Logger } from '@nestjs/common';
import type { MessageHandler } from '@nestjs/microservices';
import { throwError } from 'rxjs';
import { scan } from 'secure-json-parse';

const logger = new Logger('BusRequests');

/**
 * Why a request on the bus is refused before its handler runs, or undefined when it may run.
 * Any process that reaches the bus can publish, so a service checks what it consumes as the
 * gateway checks a body: no `__proto__` key, nor a `constructor` holding a `prototype`,
 * anywhere in it (a naive merge would reach an object's prototype through them), and the
 * fields its pattern's handler reads first as BUS_REQUEST_SHAPES says.
 */
export async function busRequestRefusal(pattern: string, data: unknown): Promise<DomainError | undefined> {
  if (holdsPrototypeKey(data)) {
    return DomainError.validation([{ path: 'request', message: 'holds a __proto__ key, or a constructor with a prototype' }]);
  }
  const shape = BUS_REQUEST_SHAPES[pattern as Pattern];
  if (!shape) return undefined;
  const errors = await shapeErrors(shape, data);
  return errors.length ? DomainError.validation(errors) : undefined;
}

/**
 * `handler` behind busRequestRefusal: a refused request is answered its validation error
 * (as a handler's DomainError is, BusExceptionFilter) and never reaches the handler.
 */
export function checkedHandler(pattern: string, handler: MessageHandler): MessageHandler {
  return (async (data: unknown, ctx: unknown) => {
    const refusal = await busRequestRefusal(pattern, data);
    if (!refusal) return handler(data, ctx) as Promise<unknown>;
    // Its words, never its content: a request may carry sealed secrets or user data.
    logger.warn(`Refused a '${pattern}' request: ${refusal.errors?.map((e) => `${e.path} ${e.message}`).join('; ') ?? refusal.detail}`);
    return throwError(() => refusal.toPayload());
  }) as MessageHandler;
}

function holdsPrototypeKey(data: unknown): boolean {
  if (data === null || typeof data !== 'object') return false;
  try {
    scan(data, { protoAction: 'error', constructorAction: 'error' });
    return false;
  } catch {
    return true;
  }
}

async function shapeErrors(shape: BusRequestShape, data: unknown): Promise<FieldError[]> {
  if (!shape.ctx && !shape.strings?.length && !shape.input) return [];
  if (!isObject(data)) return [{ path: 'request', message: 'must be a JSON object' }];
  const errors: FieldError[] = [];
  if (shape.ctx) errors.push(...contextErrors(shape.ctx, data.ctx));
  for (const field of shape.strings ?? []) {
    if (!isNonEmptyString(data[field])) errors.push({ path: field, message: 'must be a non-empty string' });
  }
  if (shape.input) {
    if (!isObject(data.input)) errors.push({ path: 'input', message: 'must be a JSON object' });
    else errors.push(...(await checkInput(shape.input, data.input)).errors.map((e) => ({ ...e, path: `input.${e.path}` })));
  }
  return errors;
}

/** The caller a handler scopes its reads and writes by: an organization, and a project where the pattern is a project's. */
function contextErrors(kind: 'project' | 'org', ctx: unknown): FieldError[] {
  if (!isObject(ctx)) return [{ path: 'ctx', message: 'must be a JSON object' }];
  const errors: FieldError[] = [];
  // A project's call is scoped by its project (a benchmark task's worker knows no organization: ''), an organization's by its organization.
  if (kind === 'project' && !isNonEmptyString(ctx.projectId)) errors.push({ path: 'ctx.projectId', message: 'must be a non-empty string' });
  if (kind === 'org' && !isNonEmptyString(ctx.orgId)) errors.push({ path: 'ctx.orgId', message: 'must be a non-empty string' });
  if (kind === 'project' && typeof ctx.orgId !== 'string') errors.push({ path: 'ctx.orgId', message: 'must be a string' });
  for (const field of ['apiKeyId', 'requestId']) {
    if (ctx[field] !== undefined && typeof ctx[field] !== 'string') errors.push({ path: `ctx.${field}`, message: 'must be a string' });
  }
  const projectIds = ctx.projectIds;
  if (projectIds !== undefined && !(Array.isArray(projectIds) && projectIds.every(isNonEmptyString))) {
    errors.push({ path: 'ctx.projectIds', message: 'must be an array of non-empty strings' });
  }
  return errors;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
