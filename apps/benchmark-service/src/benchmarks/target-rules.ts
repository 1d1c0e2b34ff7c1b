import {
  LATEST_RELEASE,
  PROMPT_RELEASE_NAME_PATTERN,
  ENV_NAMING_FIELDS,
  ENV_NAMING_MESSAGE,
  FieldError,
  headerValueProblem,
  isSecretReference,
  SECRET_REFERENCE_MESSAGE,
  type SecretReference,
} from '@cinetrace/contracts';
import { checkOutboundUrl } from '@cinetrace/outbound';

export const TARGET_TYPES = ['dataset', 'http', 'openai_chat'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** What produces each item's output. Credentials are never part of it: only references to the organization's secrets. */
export interface TargetSpec {
  type: TargetType;
  url?: string;
  /** Plain values, or `{ secret }` (the only form a credential header may take). */
  headers?: Record<string, string | SecretReference>;
  timeoutMs?: number;
  baseUrl?: string;
  model?: string;
  /** Sent as `Authorization: Bearer <value>`. */
  apiKey?: SecretReference;
  promptId?: string;
  promptVersion?: number;
  /** A release of the prompt (`staging`), resolved to its version when a run starts. */
  promptRelease?: string;
}

const FIELDS: Record<TargetType, string[]> = {
  dataset: [],
  http: ['url', 'headers', 'timeoutMs', 'apiKey'],
  openai_chat: ['baseUrl', 'model', 'apiKey'],
};
const COMMON = ['type', 'promptId', 'promptVersion', 'promptRelease'];
const PROMPT_ID = /^prm_[0-9a-z]{26}$/;

export type TargetCheck = { ok: true; target: TargetSpec } | { ok: false; errors: FieldError[] };

/** Checks a target by its type; every error names its path (`target.url`). */
export function validateTarget(raw: Record<string, unknown>, options: { allowPrivate: boolean }): TargetCheck {
  const errors: FieldError[] = [];
  const type = raw.type as TargetType;
  if (!(TARGET_TYPES as readonly unknown[]).includes(type)) {
    return { ok: false, errors: [{ path: 'target.type', message: `must be one of: ${TARGET_TYPES.join(', ')}` }] };
  }
  for (const field of Object.keys(raw)) {
    if (ENV_NAMING_FIELDS.includes(field)) errors.push({ path: `target.${field}`, message: ENV_NAMING_MESSAGE });
    else if (!COMMON.includes(field) && !FIELDS[type].includes(field)) {
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
  if (raw.apiKey !== undefined && FIELDS[type].includes('apiKey') && !isSecretReference(raw.apiKey)) {
    errors.push({ path: 'target.apiKey', message: SECRET_REFERENCE_MESSAGE });
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
  if (raw.promptRelease !== undefined) {
    if (!(typeof raw.promptRelease === 'string' && PROMPT_RELEASE_NAME_PATTERN.test(raw.promptRelease))) {
      errors.push({ path: 'target.promptRelease', message: `must be a release name (1..50 of a-z, 0-9, "_", "." and "-"), or '${LATEST_RELEASE}'` });
    } else if (raw.promptId === undefined) {
      errors.push({ path: 'target.promptRelease', message: 'needs promptId' });
    } else if (raw.promptVersion !== undefined) {
      errors.push({ path: 'target.promptRelease', message: 'takes the place of promptVersion: name one or the other' });
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
    const message = headerValueProblem(name, value);
    if (message) errors.push({ path, message });
  }
}
