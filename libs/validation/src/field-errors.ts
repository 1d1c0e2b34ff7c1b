import type { FieldError } from '@cinetrace/contracts';
import type { ValidationError } from 'class-validator';

/**
 * Flattens class-validator's tree into one entry per offending field, named by its
 * path the way a client wrote it: `spans[2].startTime`, `metadata.tone`.
 */
export function toFieldErrors(errors: ValidationError[], parentPath = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const path = joinPath(parentPath, error.property);
    for (const [constraint, text] of Object.entries(error.constraints ?? {})) {
      const message = constraint === 'whitelistValidation' ? 'is not accepted here (unknown or read-only field)' : text;
      for (const line of message.split('\n')) result.push(itemError(path, stripPropertyName(line, error.property)));
    }
    if (error.children?.length) result.push(...toFieldErrors(error.children, path));
  }
  return result;
}

/** A line `[i] message` (or `.key message`) from an item-wise validator names the item itself: `labels[2]`, `thresholds.bleu`. */
function itemError(path: string, message: string): FieldError {
  const item = /^\[(\d+)\] (.*)$/s.exec(message);
  if (item) return { path: `${path}[${item[1]}]`, message: item[2] };
  const entry = /^\.(\S+) (.*)$/s.exec(message);
  return entry ? { path: `${path}.${entry[1]}`, message: entry[2] } : { path, message };
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/** class-validator starts messages with the property name; the path already says it. */
function stripPropertyName(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}
