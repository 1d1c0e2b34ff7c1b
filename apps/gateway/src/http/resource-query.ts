import { DomainError, FieldError } from '@cinetrace/contracts';

export type ResourceParam = 'positive-int' | 'non-negative-int' | 'boolean';

/**
 * The query of a single-resource route (`?version=3`, `?includeDeleted=true`): only the
 * named parameters, each once and well-typed; anything else is a 400 naming it.
 */
export function parseResourceQuery<T extends Record<string, ResourceParam>>(
  query: Record<string, unknown>,
  spec: T,
): { [K in keyof T]?: T[K] extends 'boolean' ? boolean : number } {
  const errors: FieldError[] = [];
  const result: Record<string, number | boolean> = {};
  for (const [name, raw] of Object.entries(query)) {
    const type = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (type === undefined) errors.push({ path: name, message: 'is not a parameter of this route' });
    else if (typeof raw !== 'string') errors.push({ path: name, message: 'must be given once' });
    else if (type === 'positive-int' && /^[1-9]\d{0,8}$/.test(raw)) result[name] = Number(raw);
    else if (type === 'non-negative-int' && /^(0|[1-9]\d{0,14})$/.test(raw)) result[name] = Number(raw);
    else if (type === 'boolean' && (raw === 'true' || raw === 'false')) result[name] = raw === 'true';
    else errors.push({ path: name, message: PARAM_RULE[type] });
  }
  if (errors.length) throw DomainError.validation(errors);
  return result as { [K in keyof T]?: T[K] extends 'boolean' ? boolean : number };
}

const PARAM_RULE: Record<ResourceParam, string> = {
  'positive-int': 'must be a positive integer',
  'non-negative-int': 'must be an integer of 0 or more',
  boolean: 'must be true or false',
};
