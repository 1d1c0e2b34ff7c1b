export interface OwnerRule {
  pattern: string;
  owners: string[];
  line: number;
}

/** The rules of a CODEOWNERS file, in order (comments and blank lines dropped). */
export function ownerRules(text: string): OwnerRule[] {
  const rules: OwnerRule[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) return;
    const [pattern, ...owners] = line.split(/\s+/);
    rules.push({ pattern, owners, line: index + 1 });
  });
  return rules;
}

/** An owner as GitHub accepts it: `@user`, `@org/team`, or an e-mail address. */
export const isOwner = (owner: string): boolean => /^@[A-Za-z0-9][A-Za-z0-9-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)?$/.test(owner) || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(owner);

/**
 * Whether a CODEOWNERS (gitignore-style) pattern matches the file `file` (a repository
 * path). Supports what such files use: a leading `/` anchors, a trailing `/` matches
 * everything in a directory, `*` stands for characters within one path segment, `**`
 * for any depth; a pattern without a slash (other than a trailing one) matches at any
 * depth; a pattern naming a directory also matches the files in it.
 */
export function patternMatches(pattern: string, file: string): boolean {
  const anchored = pattern.startsWith('/') || pattern.replace(/\/$/, '').includes('/');
  const directory = pattern.endsWith('/');
  const body = pattern
    .replace(/^\//, '')
    .replace(/\/$/, '')
    .split('/')
    .map((segment) =>
      segment === '**'
        ? '.*'
        : segment
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]'),
    )
    .join('/');
  const regex = `${anchored ? '^' : '^(?:.*/)?'}${body}${directory ? '/.+' : '(?:/.+)?'}$`;
  return new RegExp(regex).test(file.replace(/^\//, ''));
}

/** The rule that decides who owns `path`: the last matching one, as GitHub reads the file. */
export function decidingRule(rules: OwnerRule[], path: string): OwnerRule | undefined {
  return [...rules].reverse().find((rule) => patternMatches(rule.pattern, path));
}
