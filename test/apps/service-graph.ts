import { Patterns, serviceAnswering } from '@cinetrace/contracts';
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// Which app requests which service's patterns, read from the code: the client `patterns` lists
// (what a process subscribes to the replies of) and the `.request…(Patterns.X, …)` calls, in
// the app's sources and in the sources of the libraries it depends on.

/** An app and the services whose patterns it requests (its own left out). */
export type ServiceGraph = Record<string, string[]>;

const ALL_PATTERNS = Object.values(Patterns) as string[];

/** The graph of every app under `repo`/apps, and the patterns requested that no service answers. */
export function readServiceGraph(repo: string): { graph: ServiceGraph; unanswered: string[] } {
  const graph: ServiceGraph = {};
  const unanswered = new Set<string>();
  for (const app of readdirSync(join(repo, 'apps')).sort()) {
    const dirs = [join(repo, 'apps', app, 'src'), ...libSources(repo, join(repo, 'apps', app))];
    const services = new Set<string>();
    for (const pattern of requestedIn(dirs)) {
      const service = serviceAnswering(pattern);
      if (!service) unanswered.add(`${app}: ${pattern}`);
      else if (service !== app) services.add(service);
    }
    graph[app] = [...services].sort();
  }
  return { graph, unanswered: [...unanswered].sort() };
}

/** A cycle of the graph as the path that closes it (its first node again at the end), or null. */
export function findCycle(graph: ServiceGraph): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of graph[node] ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of Object.keys(graph).sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

/** The sources of the repository's libraries a package depends on, through their own dependencies. */
function libSources(repo: string, pkgDir: string, seen = new Set<string>()): string[] {
  const manifest = join(pkgDir, 'package.json');
  if (!existsSync(manifest)) return [];
  const { dependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> };
  const deps = Object.keys(dependencies);
  const dirs: string[] = [];
  for (const dep of deps) {
    const lib = /^@cinetrace\/(.+)$/.exec(dep)?.[1];
    if (!lib || seen.has(lib) || !existsSync(join(repo, 'libs', lib))) continue;
    seen.add(lib);
    dirs.push(join(repo, 'libs', lib, 'src'), ...libSources(repo, join(repo, 'libs', lib), seen));
  }
  return dirs;
}

function requestedIn(dirs: string[]): Set<string> {
  const patterns = new Set<string>();
  for (const file of dirs.flatMap(sourceFiles)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      for (const pattern of requestedBy(node)) patterns.add(pattern);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return patterns;
}

/** `x.request…(Patterns.X, …)`; `patterns: [Patterns.X, …]` or `const patterns = […]`; `Object.values(Patterns)` there is every pattern. */
function requestedBy(node: ts.Node): string[] {
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text.startsWith('request')) {
    const pattern = node.arguments[0] && patternOf(node.arguments[0]);
    return pattern ? [pattern] : [];
  }
  const named = (ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node)) && node.name.getText() === 'patterns';
  if (!named || !node.initializer) return [];
  const list = node.initializer;
  if (ts.isArrayLiteralExpression(list)) return list.elements.map(patternOf).filter((p): p is string => p !== undefined);
  if (ts.isCallExpression(list) && list.expression.getText() === 'Object.values' && list.arguments[0]?.getText() === 'Patterns') return ALL_PATTERNS;
  return [];
}

function patternOf(node: ts.Expression): string | undefined {
  if (!ts.isPropertyAccessExpression(node) || node.expression.getText() !== 'Patterns') return undefined;
  return (Patterns as Record<string, string>)[node.name.text] ?? `Patterns.${node.name.text} (undeclared)`;
}

/** A directory's TypeScript sources, specs and their fixtures left out. */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(spec|e2e-spec|fixtures)\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}
