/**
 * The checks, as functions from the deployment files (and the apps' contracts, read from
 * their code) to a list of problems: empty when everything matches. The specs run them on
 * the repository and on deliberately broken copies, so each is seen to fail too.
 */
import { type AppContract, probePortVariable } from './app-contract';
import { buildArgs, type ComposeFile, type ComposeService, dependencies, durationMs, healthcheckUrl, mountedSecrets, serviceEnvironment } from './compose';
import { decidingRule, isOwner, ownerRules } from './codeowners';
import { allOf, argNames, envPairs, execForm, lastOf, stages, variablesUsed } from './dockerfile';
import { environmentProblems, type GivenEnvironment, portOf } from './env-check';
import {
  configMapData,
  type Container,
  containerEnvironment,
  containersOf,
  imageApp,
  type K8sObject,
  named,
  ofKind,
  podLabelsOf,
  podSpecOf,
  quantity,
  resolvePort,
  selects,
} from './kubernetes';

export type Contracts = Map<string, AppContract>;

/** How long an app may take to stop, by its code: the shutdown deadline, or the worker's grace when longer. */
export interface ShutdownBudget {
  /** SHUTDOWN_DEADLINE_MS of libs/health: every process exits within it after SIGTERM. */
  shutdownDeadlineMs: number;
  /** What the orchestrator should leave on top (closing connections, the exit itself). */
  marginMs: number;
}

const LIVENESS_PATH = '/healthz';
const READINESS_PATH = '/readyz';

/** The one container of an app's Deployment (its image names the app). */
function appContainer(deployment: K8sObject): Container | undefined {
  const containers = containersOf(deployment);
  return containers.length === 1 ? containers[0] : undefined;
}

/* ----------------------------------- coverage ----------------------------------------- */

/** Every deployed app has a Deployment and a Service (named after it), and every Deployment and Job container runs an app that exists. */
export function kubernetesCoverageProblems(objects: K8sObject[], deployable: string[], existingApps: string[]): string[] {
  const problems: string[] = [];
  for (const app of deployable) {
    if (!named(objects, 'Deployment', app)) problems.push(`no Deployment ${app}`);
    if (!named(objects, 'Service', app)) problems.push(`no Service ${app}`);
  }
  for (const deployment of ofKind(objects, 'Deployment')) {
    const name = deployment.metadata.name;
    if (!deployable.includes(name)) problems.push(`Deployment ${name} runs no deployable app of apps/`);
    const container = appContainer(deployment);
    if (!container) {
      problems.push(`Deployment ${name} should have exactly one container`);
      continue;
    }
    const app = imageApp(container.image ?? '');
    if (app !== name) problems.push(`Deployment ${name} runs image ${container.image}, which is not the image of ${name}`);
    if (!existingApps.includes(app)) problems.push(`Deployment ${name}: image ${container.image} names no directory of apps/`);
    problems.push(...commandProblems(`Deployment ${name}`, container, app, existingApps));
  }
  for (const job of ofKind(objects, 'Job')) {
    for (const container of containersOf(job)) {
      const app = imageApp(container.image ?? '');
      if (!existingApps.includes(app)) problems.push(`Job ${job.metadata.name}/${container.name}: image ${container.image} names no directory of apps/`);
      problems.push(...commandProblems(`Job ${job.metadata.name}/${container.name}`, container, app, existingApps));
    }
  }
  for (const service of ofKind(objects, 'Service')) {
    if (!named(objects, 'Deployment', service.metadata.name)) problems.push(`Service ${service.metadata.name} has no Deployment of the same name`);
  }
  return problems;
}

/** A container's own command must keep the image's ENTRYPOINT (tini) and run a script of its own app. */
function commandProblems(where: string, container: Container, app: string, existingApps: string[]): string[] {
  const problems: string[] = [];
  if (container.command) problems.push(`${where}: sets \`command\`, which replaces the image's ENTRYPOINT (tini); use \`args\``);
  const words = [...(container.command ?? []), ...(container.args ?? [])].join(' ');
  for (const match of words.matchAll(/apps\/([^/\s]+)\/dist\//g)) {
    if (match[1] !== app) problems.push(`${where}: runs apps/${match[1]}/dist/… in the image of ${app}`);
    if (!existingApps.includes(match[1])) problems.push(`${where}: runs apps/${match[1]}/dist/…, an app that does not exist`);
  }
  return problems;
}

/** Every deployed app is a compose service built from its own directory; no service builds or runs an app that does not exist. */
export function composeCoverageProblems(compose: ComposeFile, deployable: string[], existingApps: string[]): string[] {
  const problems: string[] = [];
  const services = compose.services ?? {};
  for (const app of deployable) {
    if (!services[app]) problems.push(`docker-compose.yml has no service ${app}`);
  }
  for (const [name, service] of Object.entries(services)) {
    const app = buildArgs(service).APP;
    const ours = service.build !== undefined || /(^|\/)cinetrace\//.test(service.image ?? '');
    if (!ours) continue;
    if (!app) {
      problems.push(`compose service ${name}: builds this project's image without the build argument APP`);
      continue;
    }
    if (!existingApps.includes(app)) problems.push(`compose service ${name}: APP=${app} names no directory of apps/`);
    if (!deployable.includes(name)) problems.push(`compose service ${name} is not a deployable app of apps/`);
    else if (app !== name) problems.push(`compose service ${name} builds APP=${app}`);
    if (service.image && imageApp(service.image) !== app) {
      problems.push(`compose service ${name}: image ${service.image} is not the image of ${app}`);
    }
    const words = [service.entrypoint, service.command].flat().filter(Boolean).join(' ');
    for (const match of words.matchAll(/apps\/([^/\s]+)\/dist\//g)) {
      if (match[1] !== app) problems.push(`compose service ${name}: runs apps/${match[1]}/dist/… in the image of ${app}`);
    }
    if (service.entrypoint) problems.push(`compose service ${name}: overrides the image's ENTRYPOINT (tini)`);
  }
  return problems;
}

/* --------------------------------- environment ---------------------------------------- */

/** Each Deployment sets exactly what its app reads; ConfigMap keys nobody reads are reported too. */
export function kubernetesEnvironmentProblems(objects: K8sObject[], contracts: Contracts): string[] {
  const problems: string[] = [];
  const configMaps = configMapData(objects);
  for (const [app, contract] of contracts) {
    const deployment = named(objects, 'Deployment', app);
    const container = deployment && appContainer(deployment);
    if (!container) continue; // reported by the coverage check
    const given = containerEnvironment(container, configMaps);
    problems.push(
      ...environmentProblems(`Deployment ${app}`, given, {
        mustSet: contract.reads,
        mayRead: contract.reads,
        mayTakeOpaque: contract.readsNamedAtRuntime,
      }),
    );
  }
  // A ConfigMap key no container reads is a setting that does nothing (often a typo).
  const used = new Map<string, Set<string>>();
  for (const workload of objects) {
    for (const container of containersOf(workload)) {
      for (const from of container.envFrom ?? []) {
        if (from.configMapRef) used.set(from.configMapRef.name, new Set(Object.keys(configMaps.get(from.configMapRef.name) ?? {})));
      }
      for (const entry of container.env ?? []) {
        const ref = entry.valueFrom?.configMapKeyRef;
        if (ref) used.set(ref.name, (used.get(ref.name) ?? new Set()).add(ref.key));
      }
    }
  }
  for (const [name, data] of configMaps) {
    for (const key of Object.keys(data)) {
      if (!used.get(name)?.has(key)) problems.push(`ConfigMap ${name}: key ${key} is read by no container`);
    }
  }
  return problems;
}

/** Each compose service of an app sets exactly what its app reads. */
export function composeEnvironmentProblems(compose: ComposeFile, contracts: Contracts): string[] {
  const problems: string[] = [];
  for (const [app, contract] of contracts) {
    const service = compose.services?.[app];
    if (!service) continue; // reported by the coverage check
    problems.push(
      ...environmentProblems(`compose service ${app}`, serviceEnvironment(service), {
        mustSet: contract.reads,
        mayRead: contract.reads,
        mayTakeOpaque: contract.readsNamedAtRuntime,
      }),
    );
  }
  return problems;
}

/**
 * Secrets given as files: every `<NAME>_FILE` at /run/secrets/… is a secret its service
 * mounts there, every secret a service mounts is defined at the top level with its source,
 * and every defined secret is mounted by some service.
 */
export function composeSecretProblems(compose: ComposeFile): string[] {
  const problems: string[] = [];
  const defined = (compose.secrets ?? {}) as Record<string, { file?: string; environment?: string } | null>;
  const mountedByAny = new Set<string>();
  for (const [name, service] of Object.entries(compose.services ?? {})) {
    const mounted = mountedSecrets(service);
    const targets = new Set(((service.secrets ?? []) as Array<string | { source: string; target?: string }>).map((s) => (typeof s === 'string' ? s : s.target ?? s.source)));
    for (const secret of mounted) {
      mountedByAny.add(secret);
      const source = defined[secret];
      if (!source) problems.push(`compose service ${name} mounts secret ${secret}, which the file does not define`);
      else if (!source.file && !source.environment) problems.push(`compose secret ${secret} has neither file nor environment`);
    }
    for (const variable of serviceEnvironment(service).variables.values()) {
      const path = /^\/run\/secrets\/([^/]+)$/.exec(variable.value ?? '');
      if (!variable.name.endsWith('_FILE') || !path) continue;
      if (!targets.has(path[1])) problems.push(`compose service ${name}: ${variable.name} reads ${variable.value}, but the service mounts no secret ${path[1]}`);
    }
  }
  for (const secret of Object.keys(defined)) {
    if (!mountedByAny.has(secret)) problems.push(`compose secret ${secret} is mounted by no service`);
  }
  return problems;
}

/**
 * Addresses in compose variables (`kafka:9092`, `postgres://u:p@postgres:5432/db`,
 * `redis://redis:6379`) must name services of the file.
 */
export function composeAddressProblems(compose: ComposeFile): string[] {
  const problems: string[] = [];
  const names = new Set(Object.keys(compose.services ?? {}));
  for (const [serviceName, service] of Object.entries(compose.services ?? {})) {
    for (const variable of serviceEnvironment(service).variables.values()) {
      if (!variable.value) continue;
      for (const part of variable.value.split(',')) {
        const match = /^(?:[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?)?([A-Za-z][A-Za-z0-9.-]*):(\d+)(?:\/.*)?$/.exec(part.trim());
        if (match && !names.has(match[1]) && match[1] !== 'localhost') {
          problems.push(`compose service ${serviceName}: ${variable.name} points at ${match[1]}, which is not a service of the file`);
        }
      }
    }
  }
  return problems;
}

/* ----------------------------------- probes ------------------------------------------- */

/**
 * Liveness /healthz and readiness /readyz on the port the app is told to serve them on
 * (HEALTH_PORT, or the gateway's PORT), a container port of that number, and a Service of
 * the app selecting its pods with target ports that exist.
 */
export function kubernetesProbeProblems(objects: K8sObject[], contracts: Contracts, checkDeadlineMs: number): string[] {
  const problems: string[] = [];
  const configMaps = configMapData(objects);
  for (const [app, contract] of contracts) {
    const deployment = named(objects, 'Deployment', app);
    const container = deployment && appContainer(deployment);
    if (!deployment || !container) continue;
    const where = `Deployment ${app}`;
    const variable = probePortVariable(contract);
    if (!variable) {
      problems.push(`${app} reads neither HEALTH_PORT nor PORT: it serves no probes`);
      continue;
    }
    const port = portOf(containerEnvironment(container, configMaps).variables.get(variable));
    if (port === undefined) {
      problems.push(`${where}: ${variable} has no literal port value, so its probes cannot be checked`);
      continue;
    }
    const ports = container.ports ?? [];
    if (!ports.some((p) => p.containerPort === port)) problems.push(`${where}: no container port ${port} (${variable})`);
    const expectations: Array<[keyof Container, string[], boolean]> = [
      ['livenessProbe', [LIVENESS_PATH], true],
      ['readinessProbe', [READINESS_PATH], true],
      ['startupProbe', [LIVENESS_PATH, READINESS_PATH], false],
    ];
    for (const [kind, paths, required] of expectations) {
      const probe = container[kind] as Container['livenessProbe'];
      if (!probe) {
        if (required) problems.push(`${where}: no ${kind}`);
        continue;
      }
      if (!probe.httpGet) {
        problems.push(`${where}: ${kind} is not an httpGet probe`);
        continue;
      }
      if (!paths.includes(probe.httpGet.path ?? '')) problems.push(`${where}: ${kind} gets ${probe.httpGet.path}, not ${paths.join(' or ')}`);
      const probed = resolvePort(probe.httpGet.port, ports);
      if (probed !== port) problems.push(`${where}: ${kind} probes port ${probe.httpGet.port} (${probed}), but ${variable} is ${port}`);
    }
    const readinessTimeoutMs = (container.readinessProbe?.timeoutSeconds ?? 1) * 1000;
    if (readinessTimeoutMs <= checkDeadlineMs) {
      problems.push(`${where}: readinessProbe times out after ${readinessTimeoutMs} ms, before /readyz gives up on a dependency (${checkDeadlineMs} ms)`);
    }
    const service = named(objects, 'Service', app);
    if (!service) continue;
    if (!selects(service.spec?.selector, podLabelsOf(deployment))) problems.push(`Service ${app} does not select the pods of Deployment ${app}`);
    const targets = (service.spec?.ports ?? []).map((p: { port: number; targetPort?: number | string }) => ({
      spec: p.targetPort ?? p.port,
      resolved: resolvePort(p.targetPort ?? p.port, ports),
    }));
    for (const target of targets) {
      if (target.resolved === undefined || !ports.some((p) => p.containerPort === target.resolved)) {
        problems.push(`Service ${app}: targetPort ${target.spec} is not a container port of Deployment ${app}`);
      }
    }
    if (!targets.some((t: { resolved?: number }) => t.resolved === port)) problems.push(`Service ${app} exposes no port targeting ${variable} (${port})`);
  }
  return problems;
}

/** Each app's compose healthcheck fetches /readyz on the port its environment gives it. */
export function composeHealthcheckProblems(compose: ComposeFile, contracts: Contracts): string[] {
  const problems: string[] = [];
  for (const [app, contract] of contracts) {
    const service = compose.services?.[app];
    if (!service) continue;
    const variable = probePortVariable(contract);
    if (!variable) continue; // reported for Kubernetes
    const port = portOf(serviceEnvironment(service).variables.get(variable));
    const url = healthcheckUrl(service);
    if (!url) problems.push(`compose service ${app}: its healthcheck fetches no http://127.0.0.1:<port>/… URL`);
    else if (url.port !== port || url.path !== READINESS_PATH) {
      problems.push(`compose service ${app}: healthcheck fetches :${url.port}${url.path}, expected :${port}${READINESS_PATH} (${variable})`);
    }
  }
  return problems;
}

/** depends_on waits for health (or a finished one-shot), on services that exist and have a healthcheck. */
export function composeDependencyProblems(compose: ComposeFile, deployable: string[]): string[] {
  const problems: string[] = [];
  const services = compose.services ?? {};
  for (const [name, service] of Object.entries(services)) {
    for (const [dependency, condition] of Object.entries(dependencies(service))) {
      const target = services[dependency];
      if (!target) {
        problems.push(`compose service ${name} depends on ${dependency}, which does not exist`);
        continue;
      }
      if (condition === 'service_healthy') {
        if (!target.healthcheck?.test || target.healthcheck.disable) problems.push(`compose service ${name} waits for ${dependency} to be healthy, but it has no healthcheck`);
      } else if (condition !== 'service_completed_successfully') {
        problems.push(`compose service ${name} depends on ${dependency} with ${condition}: use service_healthy`);
      }
    }
    if (deployable.includes(name)) {
      if (!service.healthcheck?.test) problems.push(`compose service ${name} has no healthcheck`);
      if (service.container_name) problems.push(`compose service ${name} sets container_name, so it cannot be scaled`);
    }
  }
  return problems;
}

/* ------------------------------ shutdown and policies --------------------------------- */

/** What an app needs after SIGTERM: its deadline, or the worker's task grace when longer, plus margin. */
function shutdownNeedMs(given: GivenEnvironment, budget: ShutdownBudget): number {
  const workerGrace = Number(given.variables.get('WORKER_SHUTDOWN_GRACE_MS')?.value ?? 0) || 0;
  return Math.max(budget.shutdownDeadlineMs, workerGrace) + budget.marginMs;
}

/** `preStop: exec: [sleep, N]` delays SIGTERM by N seconds. */
function preStopMs(container: Container): number {
  const command: string[] = (container as { lifecycle?: { preStop?: { exec?: { command?: string[] }; sleep?: { seconds?: number } } } }).lifecycle?.preStop?.exec?.command ?? [];
  const sleep = (container as { lifecycle?: { preStop?: { sleep?: { seconds?: number } } } }).lifecycle?.preStop?.sleep?.seconds;
  if (sleep) return sleep * 1000;
  const index = command.findIndex((word) => /(^|\/)sleep$/.test(word));
  return index >= 0 ? Number(command[index + 1] ?? 0) * 1000 : 0;
}

/**
 * Pod policies: non-root, resources, grace periods that cover the apps' shutdown, a
 * PodDisruptionBudget per Deployment, autoscalers that own their Deployment's replicas and
 * respect partition counts, and MIGRATE_ON_START=false wherever the migration Job runs.
 */
export function kubernetesPolicyProblems(objects: K8sObject[], contracts: Contracts, budget: ShutdownBudget, imageUid?: number): string[] {
  const problems: string[] = [];
  const configMaps = configMapData(objects);
  for (const workload of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
    const where = `${workload.kind} ${workload.metadata.name}`;
    const pod = podSpecOf(workload);
    for (const container of containersOf(workload)) {
      const at = `${where}/${container.name}`;
      const nonRoot = container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
      if (nonRoot !== true) problems.push(`${at}: runAsNonRoot is not true`);
      const uid = container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
      if (uid === 0) problems.push(`${at}: runs as uid 0`);
      if (uid !== undefined && imageUid !== undefined && uid !== imageUid) problems.push(`${at}: runAsUser ${uid} differs from the image's USER ${imageUid}`);
      if (container.securityContext?.allowPrivilegeEscalation !== false) problems.push(`${at}: allowPrivilegeEscalation is not false`);
      for (const resource of ['cpu', 'memory']) {
        const request = container.resources?.requests?.[resource];
        const limit = container.resources?.limits?.[resource];
        if (request === undefined) problems.push(`${at}: no ${resource} request`);
        if (limit === undefined) problems.push(`${at}: no ${resource} limit`);
        if (request !== undefined && limit !== undefined && !(quantity(request) <= quantity(limit))) {
          problems.push(`${at}: ${resource} request ${request} is above its limit ${limit}`);
        }
      }
    }
  }
  const hpas = ofKind(objects, 'HorizontalPodAutoscaler');
  const pdbs = ofKind(objects, 'PodDisruptionBudget');
  for (const deployment of ofKind(objects, 'Deployment')) {
    const name = deployment.metadata.name;
    const container = appContainer(deployment);
    const labels = podLabelsOf(deployment);
    if (!selects(deployment.spec?.selector?.matchLabels, labels)) problems.push(`Deployment ${name}: its selector does not match its pod labels`);
    const given = container ? containerEnvironment(container, configMaps) : undefined;
    if (container && given) {
      const graceMs = (podSpecOf(deployment).terminationGracePeriodSeconds ?? 30) * 1000;
      const needMs = preStopMs(container) + shutdownNeedMs(given, budget);
      if (graceMs < needMs) problems.push(`Deployment ${name}: terminationGracePeriodSeconds gives ${graceMs} ms; stopping needs ${needMs} ms (preStop, shutdown, margin)`);
      const contract = contracts.get(name);
      if (contract?.reads.has('MIGRATE_ON_START') && given.variables.get('MIGRATE_ON_START')?.value !== 'false') {
        problems.push(`Deployment ${name}: MIGRATE_ON_START must be "false" (the migration Job migrates)`);
      }
    }
    const covering = pdbs.filter((pdb) => selects(pdb.spec?.selector?.matchLabels, labels));
    if (covering.length !== 1) problems.push(`Deployment ${name}: ${covering.length} PodDisruptionBudgets select its pods (expected 1)`);
    const hpa = hpas.find((h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec?.scaleTargetRef?.name === name);
    if (hpa && deployment.spec?.replicas !== undefined) problems.push(`Deployment ${name}: sets replicas although HorizontalPodAutoscaler ${hpa.metadata.name} owns them`);
    const maxReplicas: number = hpa ? hpa.spec.maxReplicas : deployment.spec?.replicas ?? 1;
    for (const pdb of covering) {
      const minAvailable = pdb.spec?.minAvailable;
      const minReplicas: number = hpa ? hpa.spec.minReplicas ?? 1 : deployment.spec?.replicas ?? 1;
      if (typeof minAvailable === 'number' && minAvailable >= minReplicas) {
        problems.push(`PodDisruptionBudget ${pdb.metadata.name}: minAvailable ${minAvailable} with ${minReplicas} replica(s) blocks every eviction`);
      }
    }
    // A consumer of a topic with N partitions does no work past N replicas.
    for (const variable of given?.variables.values() ?? []) {
      if (/_PARTITIONS$/.test(variable.name) && variable.value !== undefined && maxReplicas > Number(variable.value)) {
        problems.push(`Deployment ${name}: up to ${maxReplicas} replicas, but ${variable.name} is ${variable.value}`);
      }
    }
  }
  for (const hpa of hpas) {
    const target = hpa.spec?.scaleTargetRef;
    if (target?.kind !== 'Deployment' || !named(objects, 'Deployment', target?.name)) {
      problems.push(`HorizontalPodAutoscaler ${hpa.metadata.name} scales ${target?.kind} ${target?.name}, which is not a Deployment here`);
    }
    if (!(hpa.spec?.minReplicas ?? 1) || (hpa.spec?.minReplicas ?? 1) > hpa.spec?.maxReplicas) {
      problems.push(`HorizontalPodAutoscaler ${hpa.metadata.name}: minReplicas ${hpa.spec?.minReplicas} above maxReplicas ${hpa.spec?.maxReplicas}`);
    }
  }
  for (const pdb of pdbs) {
    if (!ofKind(objects, 'Deployment').some((d) => selects(pdb.spec?.selector?.matchLabels, podLabelsOf(d)))) {
      problems.push(`PodDisruptionBudget ${pdb.metadata.name} selects no Deployment's pods`);
    }
  }
  return problems;
}

/** The Deployments that must have a HorizontalPodAutoscaler. */
export function autoscalingProblems(objects: K8sObject[], autoscaled: string[]): string[] {
  const hpas = ofKind(objects, 'HorizontalPodAutoscaler');
  return autoscaled
    .filter((name) => !hpas.some((h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec?.scaleTargetRef?.name === name))
    .map((name) => `Deployment ${name} has no HorizontalPodAutoscaler`);
}

/** compose: stop_grace_period covers each app's shutdown; only the HTTP edge publishes host ports (the others scale). */
export function composePolicyProblems(compose: ComposeFile, contracts: Contracts, budget: ShutdownBudget): string[] {
  const problems: string[] = [];
  for (const [app, contract] of contracts) {
    const service: ComposeService | undefined = compose.services?.[app];
    if (!service) continue;
    const given = serviceEnvironment(service);
    const graceMs = durationMs(service.stop_grace_period) ?? 10_000;
    const needMs = shutdownNeedMs(given, budget);
    if (graceMs < needMs) problems.push(`compose service ${app}: stop_grace_period gives ${graceMs} ms; stopping needs ${needMs} ms`);
    if (service.ports?.length && probePortVariable(contract) !== 'PORT') {
      problems.push(`compose service ${app} publishes host ports, so --scale cannot run more than one`);
    }
    if (service.init) problems.push(`compose service ${app}: init: true puts docker-init in front of the image's tini`);
  }
  return problems;
}

/* ---------------------------------- migrations ---------------------------------------- */

/**
 * Every app with a database has `src/migrate.ts`, and a Job container runs its
 * `dist/migrate.js` from its own image with what that script needs; no other container
 * runs a migration.
 */
export function migrationJobProblems(objects: K8sObject[], contracts: Contracts): string[] {
  const problems: string[] = [];
  const configMaps = configMapData(objects);
  const migrating = ofKind(objects, 'Job').flatMap((job) =>
    containersOf(job).map((container) => ({
      job: job.metadata.name,
      container,
      script: /apps\/([^/\s]+)\/dist\/migrate\.js/.exec([...(container.command ?? []), ...(container.args ?? [])].join(' '))?.[1],
    })),
  );
  for (const [app, contract] of contracts) {
    if (!contract.reads.has('DATABASE_URL')) continue;
    if (!contract.migrateEntry) problems.push(`${app} has a database but no apps/${app}/src/migrate.ts`);
    const runs = migrating.filter((m) => m.script === app);
    if (runs.length !== 1) {
      problems.push(`${runs.length} Job containers run apps/${app}/dist/migrate.js (expected 1)`);
      continue;
    }
    const { job, container } = runs[0];
    if (imageApp(container.image ?? '') !== app) problems.push(`Job ${job}/${container.name}: migrates ${app} with image ${container.image}`);
    problems.push(
      ...environmentProblems(`Job ${job}/${container.name}`, containerEnvironment(container, configMaps), {
        mustSet: ['DATABASE_URL', ...contract.migrateRequired],
        mayRead: contract.reads,
        mayTakeOpaque: false,
      }),
    );
  }
  for (const m of migrating) {
    if (!m.script) problems.push(`Job ${m.job}/${m.container.name} runs no apps/<app>/dist/migrate.js`);
    else if (!contracts.get(m.script)?.reads.has('DATABASE_URL')) problems.push(`Job ${m.job}/${m.container.name} migrates ${m.script}, which has no database`);
  }
  return problems;
}

/** compose may leave MIGRATE_ON_START true; "false" needs a one-shot service running the app's migrate.js first. */
export function composeMigrationProblems(compose: ComposeFile, contracts: Contracts): string[] {
  const problems: string[] = [];
  const services = compose.services ?? {};
  for (const [app, contract] of contracts) {
    const service = services[app];
    if (!service || !contract.reads.has('MIGRATE_ON_START')) continue;
    const value = serviceEnvironment(service).variables.get('MIGRATE_ON_START')?.value;
    if (value === 'true') continue;
    const migrator = Object.entries(services).find(([, s]) => [s.command].flat().join(' ').includes(`apps/${app}/dist/migrate.js`));
    if (!migrator) problems.push(`compose service ${app}: MIGRATE_ON_START is ${value} and no service runs apps/${app}/dist/migrate.js`);
    else if (dependencies(service)[migrator[0]] !== 'service_completed_successfully') {
      problems.push(`compose service ${app} should depend on ${migrator[0]} with service_completed_successfully`);
    }
  }
  return problems;
}

/* ---------------------------------- Dockerfile ---------------------------------------- */

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
  const runs = (stage: typeof final) => allOf(stage, 'RUN').map((r) => r.args).join('\n');

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
    const viaShell = !exec || /^(\/bin\/)?(ba)?sh$/.test(exec[0]) && exec[1] === '-c';
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
      if (!new RegExp(`(^|\\s)${tool.replace('+', '\\+')}(\\s|$)`).test(runs(builder))) problems.push(`the build stage does not install ${tool} (better-sqlite3 builds from source)`);
    }
    if (!/turbo run build|npm run build/.test(runs(builder))) problems.push('the build stage does not build the workspaces');
  }
  if (!/npm prune[^\n]*--omit=dev|npm ci[^\n]*--omit=dev/.test(all.map(runs).join('\n'))) problems.push('dev dependencies are never dropped (npm prune --omit=dev or npm ci --omit=dev)');
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
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
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

/* ---------------------------------- CODEOWNERS ---------------------------------------- */

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

/* ---------------------------------- docs ---------------------------------------------- */

/** docs/deploy.md names every Secret (and Secret key) the manifests refer to, so operators know what to create. */
export function secretDocumentationProblems(docs: string, refs: Array<{ name: string; key?: string }>): string[] {
  const problems = new Set<string>();
  for (const ref of refs) {
    if (!docs.includes(ref.name)) problems.add(`docs/deploy.md does not mention the Secret ${ref.name}`);
    if (ref.key && !docs.includes(ref.key)) problems.add(`docs/deploy.md does not mention the key ${ref.key} of Secret ${ref.name}`);
  }
  return [...problems];
}
