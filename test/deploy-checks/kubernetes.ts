import { emptyEnvironment, type GivenEnvironment } from './env-check';

/**
 * The parts of an object's spec the checks read, of the kinds they read them of: a
 * workload's (Deployment, Job), a Service's, a HorizontalPodAutoscaler's and a
 * PodDisruptionBudget's. Manifests are YAML, so these say what a valid one holds, and no
 * more is checked than the checks themselves check.
 */
export interface K8sSpec {
  template?: { metadata?: { labels?: Record<string, string> }; spec?: PodSpec };
  /** A Service's is a map of labels; a Deployment's or a PodDisruptionBudget's has matchLabels. */
  selector?: { matchLabels?: Record<string, string>; [label: string]: unknown };
  ports?: Array<{ port: number; targetPort?: number | string }>;
  replicas?: number;
  scaleTargetRef?: { kind?: string; name?: string };
  minReplicas?: number;
  maxReplicas?: number;
  minAvailable?: number | string;
}

export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds?: number;
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: K8sSpec;
  data?: Record<string, unknown>;
}

interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
}

export interface HttpProbe {
  httpGet?: { path?: string; port?: number | string };
  timeoutSeconds?: number;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: ContainerPort[];
  env?: Array<{ name: string; value?: unknown; valueFrom?: { configMapKeyRef?: KeyRef; secretKeyRef?: KeyRef } }>;
  envFrom?: Array<{ prefix?: string; configMapRef?: { name: string; optional?: boolean }; secretRef?: { name: string; optional?: boolean } }>;
  livenessProbe?: HttpProbe;
  readinessProbe?: HttpProbe;
  startupProbe?: HttpProbe;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; allowPrivilegeEscalation?: boolean };
}

export const isK8sObject = (value: unknown): value is K8sObject =>
  typeof value === 'object' && value !== null && typeof (value as K8sObject).kind === 'string' && typeof (value as K8sObject).metadata?.name === 'string';

export const ofKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);

export const named = (objects: K8sObject[], kind: string, name: string): K8sObject | undefined => objects.find((o) => o.kind === kind && o.metadata.name === name);

/** ConfigMap name → its data (values as strings). */
export function configMapData(objects: K8sObject[]): Map<string, Record<string, string>> {
  return new Map(ofKind(objects, 'ConfigMap').map((cm) => [cm.metadata.name, Object.fromEntries(Object.entries(cm.data ?? {}).map(([k, v]) => [k, String(v)]))]));
}

/** The pod template of a Deployment, StatefulSet, DaemonSet or Job. */
export const podSpecOf = (workload: K8sObject): PodSpec => workload.spec?.template?.spec ?? {};
export const podLabelsOf = (workload: K8sObject): Record<string, string> => workload.spec?.template?.metadata?.labels ?? {};
export const containersOf = (workload: K8sObject): Container[] => podSpecOf(workload).containers ?? [];

/** The one container of an app's Deployment (its image names the app). */
export function appContainer(deployment: K8sObject): Container | undefined {
  const containers = containersOf(deployment);
  return containers.length === 1 ? containers[0] : undefined;
}

/**
 * What a container is given: `env` entries (literal values, ConfigMap and Secret keys) and
 * `envFrom` sources (every key of a ConfigMap defined in `configMaps`; a Secret's keys are
 * not in the repository, so it is opaque). References to missing ConfigMaps or keys are
 * problems unless marked optional.
 */
export function containerEnvironment(container: Container, configMaps: Map<string, Record<string, string>>): GivenEnvironment {
  const given = emptyEnvironment();
  const add = (name: string, source: string, value?: string) => {
    const earlier = given.variables.get(name);
    if (earlier) given.problems.push(`${name} is given twice (${earlier.source}, ${source})`);
    given.variables.set(name, { name, source, value });
  };
  for (const from of container.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    if (from.configMapRef) {
      const data = configMaps.get(from.configMapRef.name);
      if (data) for (const [key, value] of Object.entries(data)) add(prefix + key, `ConfigMap ${from.configMapRef.name}`, value);
      else if (from.configMapRef.optional) given.opaque.push({ source: `ConfigMap ${from.configMapRef.name}`, optional: true });
      else given.problems.push(`envFrom names ConfigMap ${from.configMapRef.name}, which is not defined`);
    } else if (from.secretRef) {
      given.opaque.push({ source: `Secret ${from.secretRef.name} (envFrom)`, optional: from.secretRef.optional === true });
    } else {
      given.problems.push('an envFrom entry names neither a ConfigMap nor a Secret');
    }
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom;
    if (!ref) {
      add(entry.name, 'value', entry.value === undefined || entry.value === null ? '' : String(entry.value));
    } else if (ref.configMapKeyRef) {
      const { name, key, optional } = ref.configMapKeyRef;
      const data = configMaps.get(name);
      if (!data) {
        if (!optional) given.problems.push(`${entry.name} refers to ConfigMap ${name}, which is not defined`);
        add(entry.name, `ConfigMap ${name}/${key}`);
      } else if (!(key in data)) {
        if (!optional) given.problems.push(`${entry.name} refers to key ${key} of ConfigMap ${name}, which it does not have`);
        add(entry.name, `ConfigMap ${name}/${key}`);
      } else {
        add(entry.name, `ConfigMap ${name}/${key}`, data[key]);
      }
    } else if (ref.secretKeyRef) {
      add(entry.name, `Secret ${ref.secretKeyRef.name}/${ref.secretKeyRef.key}`);
    } else {
      add(entry.name, 'a field of the pod');
    }
  }
  return given;
}

/** A probe's or Service's port (a number, or the name of a container port) as a number. */
export function resolvePort(port: number | string | undefined, ports: ContainerPort[]): number | undefined {
  if (typeof port === 'number') return port;
  if (typeof port === 'string' && /^\d+$/.test(port)) return Number(port);
  return ports.find((p) => p.name === port)?.containerPort;
}

/** Whether `selector` (matchLabels, or a Service's plain map) picks pods labelled `labels`. */
export function selects(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  const pairs = Object.entries(selector ?? {});
  return pairs.length > 0 && pairs.every(([k, v]) => labels[k] === v);
}

/** Every Secret reference of the objects, as `name` (envFrom) or `name/key`. */
export function secretReferences(objects: K8sObject[]): Array<{ name: string; key?: string; optional: boolean }> {
  const refs: Array<{ name: string; key?: string; optional: boolean }> = [];
  for (const workload of objects) {
    for (const container of [...containersOf(workload), ...(podSpecOf(workload).initContainers ?? [])] as Container[]) {
      for (const from of container.envFrom ?? []) {
        if (from.secretRef) refs.push({ name: from.secretRef.name, optional: from.secretRef.optional === true });
      }
      for (const entry of container.env ?? []) {
        const ref = entry.valueFrom?.secretKeyRef;
        if (ref) refs.push({ name: ref.name, key: ref.key, optional: ref.optional === true });
      }
    }
  }
  return refs;
}

/** `cinetrace/gateway:1.2` → `cinetrace/gateway`; `reg.example.com:5000/x/gateway@sha256:…` → `reg.example.com:5000/x/gateway`. */
export function imageRepository(image: string): string {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  return colon === -1 ? withoutDigest : withoutDigest.slice(0, colon);
}

/** The last path segment of an image's repository: the app an image of this project runs. */
export const imageApp = (image: string): string => imageRepository(image).split('/').pop() ?? '';

/** Quantities such as `250m`, `1`, `512Mi` → comparable numbers (cores, bytes). */
export function quantity(value: unknown): number {
  const text = String(value);
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(text);
  if (!match) return NaN;
  const factor: Record<string, number> = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
  return Number(match[1]) * (match[2] ? factor[match[2]] : 1);
}
