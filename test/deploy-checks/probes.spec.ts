// 4. Probe paths and ports exist: the gateway's /healthz and /readyz on the PORT it is given,
//    every other app's on the HEALTH_PORT it is given (which variable, from the app's env
//    class); container ports and Service target ports agree; compose healthchecks fetch
//    /readyz on that port and depends_on waits for health.
import { allContracts, readinessCheckDeadlineMs } from './budget';
import { composeDependencyProblems, composeHealthcheckProblems } from './compose-checks';
import { kubernetesProbeProblems } from './kubernetes-checks';
import { type K8sObject, containersOf, named } from './kubernetes';
import { baseObjects, composeFile, composeSets, manifestSets } from './manifests';
import { deployableApps } from './repo';

const contracts = allContracts();
const checkDeadlineMs = readinessCheckDeadlineMs();

describe.each(manifestSets().map((set) => [set.name, set.objects] as const))('%s', (_name, objects) => {
  it('probes /healthz and /readyz on the port each app serves them on, and Services target container ports', () => {
    expect(kubernetesProbeProblems(objects, contracts, checkDeadlineMs)).toEqual([]);
  });
});

describe.each(composeSets().map((set) => [set.name, set.compose] as const))('%s', (_name, compose) => {
  it("checks each app's health on /readyz at the port its environment gives it", () => {
    expect(composeHealthcheckProblems(compose, contracts)).toEqual([]);
  });

  it('starts apps once what they depend on is healthy', () => {
    expect(composeDependencyProblems(compose, deployableApps())).toEqual([]);
  });
});

describe('the probe checks fail', () => {
  const base = (): K8sObject[] => structuredClone(baseObjects());

  it('when HEALTH_PORT moves and the probes and container port stay', () => {
    const objects = base();
    named(objects, 'ConfigMap', 'prompt-service-config')!.data!.HEALTH_PORT = '9000';
    expect(kubernetesProbeProblems(objects, contracts, checkDeadlineMs)).toEqual(
      expect.arrayContaining([
        'Deployment prompt-service: no container port 9000 (HEALTH_PORT)',
        'Deployment prompt-service: livenessProbe probes port health (8081), but HEALTH_PORT is 9000',
        'Deployment prompt-service: readinessProbe probes port health (8081), but HEALTH_PORT is 9000',
      ]),
    );
  });

  it('on a wrong probe path, a Service target port that does not exist, and a probe timing out before /readyz decides', () => {
    const objects = base();
    const gateway = containersOf(named(objects, 'Deployment', 'gateway')!)[0];
    gateway.readinessProbe!.httpGet!.path = '/ready';
    gateway.readinessProbe!.timeoutSeconds = 1;
    named(objects, 'Service', 'benchmark-worker')!.spec!.ports![0].targetPort = 'helth';
    expect(kubernetesProbeProblems(objects, contracts, checkDeadlineMs).sort()).toEqual([
      'Deployment gateway: readinessProbe gets /ready, not /readyz',
      `Deployment gateway: readinessProbe times out after 1000 ms, before /readyz gives up on a dependency (${checkDeadlineMs} ms)`,
      'Service benchmark-worker exposes no port targeting HEALTH_PORT (8081)',
      'Service benchmark-worker: targetPort helth is not a container port of Deployment benchmark-worker',
    ]);
  });

  it('on a compose healthcheck at another port, and on waiting for health that is never checked', () => {
    const compose = structuredClone(composeFile());
    compose.services['gateway'].healthcheck!.test = ['CMD', 'node', '-e', "fetch('http://127.0.0.1:8081/readyz')"];
    delete compose.services['redis'].healthcheck;
    expect(composeHealthcheckProblems(compose, contracts)).toEqual(['compose service gateway: healthcheck fetches :8081/readyz, expected :3000/readyz (PORT)']);
    expect(composeDependencyProblems(compose, deployableApps())).toEqual([
      'compose service benchmark-service waits for redis to be healthy, but it has no healthcheck',
      'compose service benchmark-worker waits for redis to be healthy, but it has no healthcheck',
      'compose service media-service waits for redis to be healthy, but it has no healthcheck',
    ]);
  });
});
