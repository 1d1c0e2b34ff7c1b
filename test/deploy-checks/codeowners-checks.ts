/**
 * The check of CODEOWNERS against the directories of apps/ and libs/.
 * Each check is a function from the files (and the apps' contracts, read from their code)
 * to a list of problems: empty when everything matches. The specs run them on the
 * repository and on deliberately broken copies, so each is seen to fail too.
 */
import { decidingRule, isOwner, ownerRules } from './codeowners';

/**
 * Each directory of apps/ and libs/ has its own line (`/apps/<name>/`), which is also the
 * line that decides (no later broader line overrides it), with valid owners; no line names
 * a directory of apps/ or libs/ that does not exist; a catch-all, if any, comes first.
 */
export function codeownersProblems(text: string, workspaceDirs: string[]): string[] {
  const problems: string[] = [];
  const rules = ownerRules(text);
  const own = (rule: { pattern: string }, dir: string) => rule.pattern.replace(/^\//, '').replace(/\/(\*\*)?$/, '') === dir;
  for (const dir of workspaceDirs) {
    const line = rules.find((rule) => own(rule, dir));
    if (!line) {
      problems.push(`CODEOWNERS has no line for ${dir}/`);
      continue;
    }
    const deciding = decidingRule(rules, `${dir}/package.json`);
    if (deciding !== line && deciding && !own(deciding, dir)) {
      problems.push(`CODEOWNERS: line ${deciding.line} (${deciding.pattern}) overrides the line of ${dir}/`);
    }
    if (line.owners.length === 0) problems.push(`CODEOWNERS: ${dir}/ has no owner`);
  }
  for (const rule of rules) {
    for (const owner of rule.owners) if (!isOwner(owner)) problems.push(`CODEOWNERS line ${rule.line}: ${owner} is not @user, @org/team or an e-mail`);
    const named = /^\/?((?:apps|libs)\/[^/*]+)/.exec(rule.pattern)?.[1];
    if (named && !workspaceDirs.includes(named)) problems.push(`CODEOWNERS line ${rule.line}: ${rule.pattern} names a directory that does not exist`);
  }
  const catchAll = rules.findIndex((rule) => rule.pattern === '*' || rule.pattern === '/**' || rule.pattern === '**');
  if (catchAll > 0) problems.push('CODEOWNERS: the catch-all line must come first (the last match wins)');
  return problems;
}
