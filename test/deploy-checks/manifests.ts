import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ComposeFile, mergeCompose } from './compose';
import { isK8sObject, type K8sObject } from './kubernetes';
import { filesUnder, packageDirs, rootPath } from './repo';
import { kustomizeCommand, run } from './tools';
import { COMPOSE_FILE, COMPOSE_OVERRIDES, loadYaml, parseYamlDocuments } from './yaml-files';

export const BASE_DIR = 'deploy/base';
export const OVERLAYS_DIR = 'deploy/overlays';

/** The files of deploy/base that hold resources (everything but the kustomization). */
export const baseResourceFiles = (): string[] => filesUnder(BASE_DIR, /\.ya?ml$/).filter((f) => !/(^|\/)kustomization\.ya?ml$/.test(f));

/** The objects of deploy/base, read from its files as they are in the repository. */
export function baseObjects(): K8sObject[] {
  return baseResourceFiles().flatMap((file) => loadYaml(file).filter(isK8sObject));
}

/** The directories of deploy/overlays/*. */
export const overlayDirs = (): string[] =>
  fs.existsSync(rootPath(OVERLAYS_DIR))
    ? fs
        .readdirSync(rootPath(OVERLAYS_DIR), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => path.posix.join(OVERLAYS_DIR, e.name))
        .sort()
    : [];

export interface ManifestSet {
  /** e.g. `deploy/base` or `deploy/overlays/example (rendered by kubectl)`. */
  name: string;
  objects: K8sObject[];
}

export interface Rendering {
  dir: string;
  tool?: string;
  /** Set when the tool is present: the rendered objects, or the tool's error. */
  objects?: K8sObject[];
  error?: string;
}

/** Renders a kustomization with kubectl or kustomize when one is installed. */
const renderings = new Map<string, Rendering>();

export function render(dir: string): Rendering {
  const cached = renderings.get(dir);
  if (cached) return structuredClone(cached);
  const rendering = renderNow(dir);
  renderings.set(dir, rendering);
  return structuredClone(rendering);
}

function renderNow(dir: string): Rendering {
  const tool = kustomizeCommand();
  if (!tool) return { dir };
  const result = run(tool.command, tool.args(dir));
  if (result.status !== 0) return { dir, tool: tool.command, error: result.stderr || result.stdout };
  return { dir, tool: tool.command, objects: parseYamlDocuments(result.stdout, `${tool.command} output for ${dir}`).filter(isK8sObject) };
}

/**
 * The manifests to check: deploy/base as written, and — where kubectl or kustomize is
 * installed — every overlay as rendered (so a patch that breaks an app is caught too).
 * Without a renderer the overlays are checked structurally only (kustomization.spec.ts).
 */
export function manifestSets(): ManifestSet[] {
  const sets: ManifestSet[] = [{ name: BASE_DIR, objects: baseObjects() }];
  for (const dir of overlayDirs()) {
    const rendering = render(dir);
    if (rendering.objects) sets.push({ name: `${dir} (rendered by ${rendering.tool})`, objects: rendering.objects });
  }
  return sets;
}

export const composeFile = (): ComposeFile => loadYaml(COMPOSE_FILE)[0] as ComposeFile;

export interface ComposeSet {
  /** e.g. `docker-compose.yml + docker-compose.tls.yml`. */
  name: string;
  compose: ComposeFile;
}

/** What `docker compose` runs: docker-compose.yml alone, and with each override on top. */
export function composeSets(): ComposeSet[] {
  const base = composeFile();
  return [{ name: COMPOSE_FILE, compose: base }, ...COMPOSE_OVERRIDES.map((file) => ({ name: `${COMPOSE_FILE} + ${file}`, compose: mergeCompose(base, loadYaml(file)[0]) }))];
}

/** Every directory of apps/ and libs/, as `apps/<name>`. */
export const workspaceDirs = (): string[] => [...packageDirs('apps').map((d) => `apps/${d}`), ...packageDirs('libs').map((d) => `libs/${d}`)];
