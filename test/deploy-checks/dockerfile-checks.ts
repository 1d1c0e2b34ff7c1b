/**
 * The checks of the Dockerfile and .dockerignore.
 * Each check is a function from the files (and the apps' contracts, read from their code)
 * to a list of problems: empty when everything matches. The specs run them on the
 * repository and on deliberately broken copies, so each is seen to fail too.
 */
import { allOf, argNames, envPairs, execForm, lastOf, stages, variablesUsed } from './dockerfile';

/**
 * One Dockerfile for every app: the build stages compile everything (with the compilers
 * better-sqlite3 needs) and drop dev dependencies; the last stage takes ARG APP, runs
 * `node apps/$APP/dist/main.js` under tini as a non-root numeric USER.
 */
export function dockerfileProblems(text: string): string[] {
  const problems: string[] = [];
  const all = stages(text);
  if (all.length < 2) return ['the Dockerfile is not multi-stage'];
  const final = all[all.length - 1];
  const earlier = all.slice(0, -1);
  const runs = (stage: typeof final) =>
    allOf(stage, 'RUN')
      .map((r) => r.args)
      .join('\n');

  const argApp = allOf(final, 'ARG').some((a) => argNames(a).includes('APP'));
  if (!argApp) problems.push('the runtime (last) stage declares no ARG APP');
  for (const stage of earlier) {
    if (allOf(stage, 'ARG').some((a) => argNames(a).includes('APP'))) {
      problems.push(`stage ${stage.name ?? stage.from} declares ARG APP: the build stages would no longer be shared by the apps' images`);
    }
  }

  // CMD: node apps/<APP>/dist/main.js, where <APP> comes from ARG APP (directly, or via an ENV set from it).
  const aliases = new Set(['APP']);
  for (const env of allOf(final, 'ENV')) {
    for (const [name, value] of Object.entries(envPairs(env))) if (variablesUsed(value).some((v) => aliases.has(v))) aliases.add(name);
  }
  const cmd = lastOf(final, 'CMD');
  const entrypoint = lastOf(final, 'ENTRYPOINT');
  if (!cmd) problems.push('the runtime stage has no CMD');
  else {
    const exec = execForm(cmd.args);
    const words = exec ?? [cmd.args];
    const joined = words.join(' ');
    const main = /\bnode\b.*apps\/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\/dist\/main\.js/.exec(joined);
    if (!main) problems.push(`CMD does not run node apps/$APP/dist/main.js: ${cmd.args}`);
    else if (!aliases.has(main[1])) problems.push(`CMD runs apps/$${main[1]}/…, which is not set from ARG APP`);
    // Exec form is not expanded by any shell: a variable there would stay literal.
    const viaShell = !exec || (/^(\/bin\/)?(ba)?sh$/.test(exec[0]) && exec[1] === '-c');
    if (main && !viaShell) problems.push('CMD uses a variable in exec form without a shell: it is never expanded');
    if (main && viaShell && exec && !/\bexec\s+node\b/.test(joined)) problems.push('CMD runs node through a shell without `exec`: node would not be the process tini signals');
  }
  if (!entrypoint || !/\btini\b/.test(entrypoint.args)) problems.push('the runtime stage does not run under tini (ENTRYPOINT)');
  if (!/\btini\b/.test(runs(final)) && !allOf(final, 'COPY').some((c) => /tini/.test(c.args))) problems.push('the runtime stage does not install tini');

  const user = lastOf(final, 'USER');
  if (!user) problems.push('the runtime stage sets no USER (it would run as root)');
  else if (!/^\d+(:\d+)?$/.test(user.args)) problems.push(`USER ${user.args} is not numeric: Kubernetes cannot verify runAsNonRoot for a name`);
  else if (Number(user.args.split(':')[0]) === 0) problems.push('USER is root');

  const builder = earlier.find((stage) => /\bnpm ci\b/.test(runs(stage)));
  if (!builder) problems.push('no build stage runs npm ci');
  else {
    for (const tool of ['python3', 'make', 'g++']) {
      if (!new RegExp(`(^|\\s)${tool.replace('+', '\\+')}(\\s|$)`).test(runs(builder)))
        problems.push(`the build stage does not install ${tool} (better-sqlite3 builds from source)`);
    }
    if (!/turbo run build|npm run build/.test(runs(builder))) problems.push('the build stage does not build the workspaces');
  }
  if (!/npm prune[^\n]*--omit=dev|npm ci[^\n]*--omit=dev/.test(all.map(runs).join('\n')))
    problems.push('dev dependencies are never dropped (npm prune --omit=dev or npm ci --omit=dev)');
  if (/\b(python3|g\+\+)\b/.test(runs(final))) problems.push('the runtime stage installs compilers');
  const names = new Set(all.map((s) => s.name).filter(Boolean));
  for (const stage of all) {
    for (const copy of allOf(stage, 'COPY')) {
      const from = /--from=(\S+)/.exec(copy.args)?.[1];
      if (from && !names.has(from) && !from.includes('/') && !from.includes(':')) problems.push(`COPY --from=${from} names no stage`);
    }
  }
  return problems;
}

/** The numeric uid of the runtime stage's USER, if it is one. */
export function dockerfileUid(text: string): number | undefined {
  const all = stages(text);
  const user = all.length ? lastOf(all[all.length - 1], 'USER') : undefined;
  return user && /^\d+(:\d+)?$/.test(user.args) ? Number(user.args.split(':')[0]) : undefined;
}

/** .dockerignore must keep host-built modules and output, and local data, out of the context. */
export function dockerignoreProblems(text: string): string[] {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const problems: string[] = [];
  for (const [what, patterns] of [
    ['node_modules', ['**/node_modules', 'node_modules']],
    ['dist', ['**/dist']],
    ['.git', ['.git']],
    ['data', ['data', '**/data']],
  ] as const) {
    if (!patterns.some((p) => lines.includes(p))) problems.push(`.dockerignore does not exclude ${what} (${patterns.join(' or ')})`);
  }
  if (lines.some((l) => /^!/.test(l) && /node_modules|dist/.test(l))) problems.push('.dockerignore re-includes node_modules or dist');
  return problems;
}
