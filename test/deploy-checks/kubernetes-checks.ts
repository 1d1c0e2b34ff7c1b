/**
 * The checks of the Kubernetes manifests (deploy/base, and the overlays as rendered),
 * and of docs/deploy.md's list of the Secrets they refer to.
 * Each check is a function from the files (and the apps' contracts, read from their code)
 * to a list of problems: empty when everything matches. The specs run them on the
 * repository and on deliberately broken copies, so each is seen to fail too.
 */
import { type Contracts, LIVENESS_PATH, probePortVariable, READINESS_PATH } from './app-contract';
import { shutdownNeedMs, type ShutdownBudget } from './budget';
import { environmentProblems, portOf } from './env-check';
import {
  appContainer,
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
    const selector = service.spec?.selector as Record<string, string> | undefined; // a Service's is a plain map of labels
    if (!selects(selector, podLabelsOf(deployment))) problems.push(`Service ${app} does not select the pods of Deployment ${app}`);
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

/* ------------------------------ shutdown and policies --------------------------------- */

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
    // An HPA without maxReplicas is invalid (kubectl refuses it); as before, it compares as undefined.
    const maxReplicas = hpa ? (hpa.spec!.maxReplicas as number) : (deployment.spec?.replicas ?? 1);
    for (const pdb of covering) {
      const minAvailable = pdb.spec?.minAvailable;
      const minReplicas = hpa ? (hpa.spec!.minReplicas ?? 1) : (deployment.spec?.replicas ?? 1);
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
    if (target?.kind !== 'Deployment' || !named(objects, 'Deployment', target?.name as string)) {
      problems.push(`HorizontalPodAutoscaler ${hpa.metadata.name} scales ${target?.kind} ${target?.name}, which is not a Deployment here`);
    }
    if (!(hpa.spec?.minReplicas ?? 1) || (hpa.spec?.minReplicas ?? 1) > (hpa.spec?.maxReplicas as number)) {
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
