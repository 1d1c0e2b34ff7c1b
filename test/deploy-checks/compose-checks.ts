/**
 * The checks of docker-compose.yml (alone, and with each override on top).
 * Each check is a function from the files (and the apps' contracts, read from their code)
 * to a list of problems: empty when everything matches. The specs run them on the
 * repository and on deliberately broken copies, so each is seen to fail too.
 */
import { type Contracts, probePortVariable, READINESS_PATH } from './app-contract';
import { shutdownNeedMs, type ShutdownBudget } from './budget';
import { buildArgs, type ComposeFile, type ComposeService, dependencies, durationMs, healthcheckUrl, mountedSecrets, serviceEnvironment } from './compose';
import { environmentProblems, portOf } from './env-check';
import { imageApp } from './kubernetes';

/* ----------------------------------- coverage ----------------------------------------- */

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
    const targets = new Set(((service.secrets ?? []) as Array<string | { source: string; target?: string }>).map((s) => (typeof s === 'string' ? s : (s.target ?? s.source))));
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
