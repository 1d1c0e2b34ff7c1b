import * as path from 'node:path';
import { imageRepository, type K8sObject, containersOf, ofKind } from './kubernetes';
import { BASE_DIR, baseResourceFiles } from './manifests';
import { exists } from './repo';
import { loadYaml } from './yaml-files';

/** The parts of a kustomization file the checks read (it is YAML: what a valid one holds). */
interface Kustomization {
  resources?: string[];
  namespace?: string;
  images?: Array<{ name: string; newTag?: string; digest?: string }>;
  replicas?: Array<{ name: string }>;
  patches?: Array<{ path?: string; target?: { kind?: string; name?: string } }>;
}

const kustomizationFile = (dir: string): string | undefined => ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].map((f) => `${dir}/${f}`).find(exists);

/** deploy/base's kustomization lists exactly the resource files present in deploy/base. */
export function baseKustomizationProblems(): string[] {
  const file = kustomizationFile(BASE_DIR);
  if (!file) return [`${BASE_DIR} has no kustomization.yaml`];
  const kustomization = loadYaml(file)[0] as Kustomization | undefined;
  const listed: string[] = (kustomization?.resources ?? []).map((r: string) => path.posix.normalize(`${BASE_DIR}/${r}`));
  const present = baseResourceFiles();
  const problems: string[] = [];
  for (const f of present) if (!listed.includes(f)) problems.push(`${file} does not list ${f}`);
  for (const f of listed) if (!present.includes(f)) problems.push(`${file} lists ${f}, which does not exist`);
  if (new Set(listed).size !== listed.length) problems.push(`${file} lists a resource twice`);
  return problems;
}

/**
 * An overlay, read without a renderer: its resources exist, it sets a namespace, and the
 * images, replicas and patch targets it names exist in the base (a typo there would be
 * silently ignored by kustomize).
 */
export function overlayProblems(dir: string, base: K8sObject[]): string[] {
  const file = kustomizationFile(dir);
  if (!file) return [`${dir} has no kustomization.yaml`];
  const k = loadYaml(file)[0] as Kustomization | undefined;
  const problems: string[] = [];
  for (const resource of k?.resources ?? []) {
    if (!exists(path.posix.normalize(`${dir}/${resource}`))) problems.push(`${file}: resource ${resource} does not exist`);
  }
  if (!k?.namespace) problems.push(`${file} sets no namespace`);
  const baseImages = new Set([...ofKind(base, 'Deployment'), ...ofKind(base, 'Job')].flatMap((w) => containersOf(w).map((c) => imageRepository(c.image ?? ''))));
  const images = k?.images ?? [];
  for (const image of images) {
    if (!baseImages.has(image.name)) problems.push(`${file}: image ${image.name} is used by no container of the base`);
    if (!image.newTag && !image.digest) problems.push(`${file}: image ${image.name} gets no tag or digest`);
  }
  for (const used of baseImages) {
    if (!images.some((image) => image.name === used)) problems.push(`${file} does not set the registry and tag of ${used}`);
  }
  for (const replica of k?.replicas ?? []) {
    if (!base.some((o) => o.kind === 'Deployment' && o.metadata.name === replica.name)) problems.push(`${file}: replicas for ${replica.name}, which is no Deployment`);
  }
  for (const patch of k?.patches ?? []) {
    if (patch.path && !exists(`${dir}/${patch.path}`)) problems.push(`${file}: patch ${patch.path} does not exist`);
    const target = patch.target;
    // kustomize reads a target's name as an anchored regular expression (one patch for several Deployments).
    const named = (name: string) => !target?.name || new RegExp(`^(?:${target.name})$`).test(name);
    if (target && !base.some((o) => (!target.kind || o.kind === target.kind) && named(o.metadata.name))) {
      problems.push(`${file}: patch target ${target.kind ?? '*'} ${target.name ?? '*'} matches nothing in the base`);
    }
    // With a target, the file is a list of JSON patch operations, not objects naming themselves.
    if (patch.path && !target) {
      for (const doc of loadYaml(`${dir}/${patch.path}`) as K8sObject[]) {
        if (!base.some((o) => o.kind === doc.kind && o.metadata.name === doc.metadata?.name)) {
          problems.push(`${file}: patch ${patch.path} patches ${doc.kind} ${doc.metadata?.name}, which is not in the base`);
        }
      }
    }
  }
  return problems;
}
