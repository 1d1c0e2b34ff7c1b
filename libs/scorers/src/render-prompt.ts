import { valueAtPath } from './field-path';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

/**
 * Fills `{{ name }}` placeholders of a prompt from a benchmark item's input: `name` is a
 * dot path into the input (`{{ scene.mood }}`); strings go in as they are, other values as
 * JSON. Nothing is evaluated, and a value is never scanned for placeholders in turn. A
 * placeholder the input cannot fill is left as written, so the gap shows in the output.
 * When the input is not an object (a plain string prompt), `{{ input }}` is the input itself.
 */
export function renderPrompt(content: string, variables: unknown): string {
  return content.replace(PLACEHOLDER, (placeholder, name: string) => {
    const found = lookup(variables, name);
    return found.found ? (typeof found.value === 'string' ? found.value : JSON.stringify(found.value)) : placeholder;
  });
}

function lookup(variables: unknown, name: string) {
  const isObject = variables !== null && typeof variables === 'object';
  if (!isObject && name === 'input' && variables !== undefined) return { found: true as const, value: variables };
  // A name like `a..b` or `a.` is no path: leave it as written.
  if (name.split('.').some((part) => part === '')) return { found: false as const };
  return valueAtPath(variables, name);
}
