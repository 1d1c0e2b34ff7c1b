import type { FieldError } from '@cinetrace/contracts';
import { checkOutboundUrl } from '@cinetrace/outbound';

export const TARGET_TYPES = ['dataset', 'http', 'openai_chat'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** What produces each item's output. Secrets are never part of it: only the name of the variable holding one. */
export interface TargetSpec {
  type: TargetType;
  url?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  baseUrl?: string;
  model?: string;
  apiKeyEnv?: string;
  promptId?: string;
  promptVersion?: number;
}

const FIELDS: Record<TargetType, string[]> = {
  dataset: [],
  http: ['url', 'headers', 'timeoutMs', 'apiKeyEnv'],
  openai_chat: ['baseUrl', 'model', 'apiKeyEnv'],
};
const COMMON = ['type', 'promptId', 'promptVersion'];
const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
const PROMPT_ID = /^prm_[0-9a-z]{26}$/;
/** Credentials belong in the environment (apiKeyEnv), not in a benchmark anyone in the project can read. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

export type TargetCheck = { ok: true; target: TargetSpec } | { ok: false; errors: FieldError[] };

/** Checks a target by its type; every error names its path (`target.url`). */
export function validateTarget(raw: Record<string, unknown>, options: { allowPrivate: boolean }): TargetCheck {
  const errors: FieldError[] = [];
  const type = raw.type as TargetType;
  if (!(TARGET_TYPES as readonly unknown[]).includes(type)) {
    return { ok: false, errors: [{ path: 'target.type', message: `must be one of: ${TARGET_TYPES.join(', ')}` }] };
  }
  for (const field of Object.keys(raw)) {
    if (!COMMON.includes(field) && !FIELDS[type].includes(field)) {
      errors.push({ path: `target.${field}`, message: `is not a field of a '${type}' target` });
    }
  }
  const url = (field: 'url' | 'baseUrl') => {
    if (typeof raw[field] !== 'string') return errors.push({ path: `target.${field}`, message: 'is required (an http or https URL)' });
    const check = checkOutboundUrl(raw[field] as string, options);
    if (!check.ok) errors.push({ path: `target.${field}`, message: check.message });
  };
  if (type === 'http') {
    url('url');
    checkHeaders(raw.headers, errors);
    if (raw.timeoutMs !== undefined && !(Number.isInteger(raw.timeoutMs) && (raw.timeoutMs as number) >= 1000 && (raw.timeoutMs as number) <= 600_000)) {
      errors.push({ path: 'target.timeoutMs', message: 'must be an integer from 1000 to 600000' });
    }
  }
  if (type === 'openai_chat') {
    url('baseUrl');
    if (typeof raw.model !== 'string' || raw.model.length < 1 || raw.model.length > 200) {
      errors.push({ path: 'target.model', message: 'is required (1..200 characters)' });
    }
  }
  if (raw.apiKeyEnv !== undefined && !(typeof raw.apiKeyEnv === 'string' && ENV_NAME.test(raw.apiKeyEnv))) {
    errors.push({ path: 'target.apiKeyEnv', message: 'must be the name of an environment variable (A-Z, 0-9, _)' });
  }
  if (raw.promptId !== undefined && !(typeof raw.promptId === 'string' && PROMPT_ID.test(raw.promptId))) {
    errors.push({ path: 'target.promptId', message: "must be a prompt id ('prm_…')" });
  }
  if (raw.promptVersion !== undefined) {
    if (!(Number.isInteger(raw.promptVersion) && (raw.promptVersion as number) >= 1)) {
      errors.push({ path: 'target.promptVersion', message: 'must be a positive integer' });
    } else if (raw.promptId === undefined) {
      errors.push({ path: 'target.promptVersion', message: 'needs promptId' });
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, target: raw as unknown as TargetSpec };
}

function checkHeaders(headers: unknown, errors: FieldError[]): void {
  if (headers === undefined) return;
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
    errors.push({ path: 'target.headers', message: 'must be an object of header names to string values' });
    return;
  }
  const entries = Object.entries(headers);
  if (entries.length > 50) errors.push({ path: 'target.headers', message: 'must hold at most 50 headers' });
  for (const [name, value] of entries) {
    const path = `target.headers.${name}`;
    if (!HEADER_NAME.test(name)) errors.push({ path, message: 'is not a valid header name' });
    else if (SECRET_HEADERS.has(name.toLowerCase())) {
      errors.push({ path, message: 'must not hold a credential: name the environment variable that holds it in apiKeyEnv' });
    } else if (typeof value !== 'string' || value.length > 4096 || /[\r\n]/.test(value)) {
      errors.push({ path, message: 'must be a string of at most 4096 characters on one line' });
    }
  }
}
