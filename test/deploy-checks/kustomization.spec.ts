// 6b. The kustomizations: the base lists every resource file present in deploy/base; each
//     overlay's resources, images, replicas and patch targets exist.
// And the policies of the manifests and compose file: non-root pods with resources, grace
// periods covering the apps' own shutdown deadline (libs/health) and the worker's task grace,
// a PodDisruptionBudget per Deployment, autoscalers where load varies (and never past a
// consumed topic's partitions), MIGRATE_ON_START=false under the migration Job, and every
// Secret the manifests refer to documented in docs/deploy.md.
import { allContracts, shutdownBudget } from './budget';
import { composePolicyProblems } from './compose-checks';
import { dockerfileUid } from './dockerfile-checks';
import { autoscalingProblems, kubernetesPolicyProblems, secretDocumentationProblems } from './kubernetes-checks';
import { type K8sObject, containersOf, named, secretReferences } from './kubernetes';
import { baseKustomizationProblems, overlayProblems } from './kustomize-checks';
import { baseObjects, composeFile, composeSets, manifestSets, overlayDirs } from './manifests';
import { readText } from './repo';

const contracts = allContracts();
const budget = shutdownBudget();
const imageUid = dockerfileUid(readText('Dockerfile'));

/**
 * A deployment choice, not something the code says: the stateless HTTP edge and the two
 * consumers whose load comes and goes (the trace stream, the task queue) autoscale; the
 * request-reply services run a fixed number of replicas set by the overlay.
 */
const AUTOSCALED = ['gateway', 'trace-ingest', 'benchmark-worker'];

describe('kustomizations', () => {
  it('deploy/base lists every resource file present in deploy/base', () => {
    expect(baseKustomizationProblems()).toEqual([]);
  });

  it('there is at least one overlay', () => {
    expect(overlayDirs().length).toBeGreaterThan(0);
  });

  it.each(overlayDirs())('%s names only resources, images, Deployments and patch targets that exist', (dir) => {
    expect(overlayProblems(dir, baseObjects())).toEqual([]);
  });
});

describe.each(manifestSets().map((set) => [set.name, set.objects] as const))('%s', (_name, objects) => {
  it('runs non-root pods with resources, grace for their shutdown, disruption budgets, sane autoscaling', () => {
    expect(kubernetesPolicyProblems(objects, contracts, budget, imageUid)).toEqual([]);
  });

  it(`autoscales ${AUTOSCALED.join(', ')}`, () => {
    expect(autoscalingProblems(objects, AUTOSCALED)).toEqual([]);
  });

  it('refers only to Secrets that docs/deploy.md tells operators to create', () => {
    const refs = secretReferences(objects);
    expect(refs.length).toBeGreaterThan(0);
    expect(secretDocumentationProblems(readText('docs/deploy.md'), refs)).toEqual([]);
  });
});

describe.each(composeSets().map((set) => [set.name, set.compose] as const))('%s', (_name, compose) => {
  it('gives apps time to stop, and lets all but the HTTP edge scale', () => {
    expect(composePolicyProblems(compose, contracts, budget)).toEqual([]);
  });
});

describe('the policy checks fail', () => {
  const base = (): K8sObject[] => structuredClone(baseObjects());

  it('on a grace period shorter than the worker grace, replicas beside an HPA, an HPA past the partitions, root, no limits', () => {
    const objects = base();
    named(objects, 'Deployment', 'benchmark-worker')!.spec!.template!.spec!.terminationGracePeriodSeconds = 10;
    named(objects, 'Deployment', 'gateway')!.spec!.replicas = 3;
    named(objects, 'HorizontalPodAutoscaler', 'trace-ingest')!.spec!.maxReplicas = 24;
    const prompt = named(objects, 'Deployment', 'prompt-service')!;
    prompt.spec!.template!.spec!.securityContext!.runAsNonRoot = false;
    delete containersOf(prompt)[0].resources!.limits!.memory;
    named(objects, 'ConfigMap', 'gateway-config')!.data!.MIGRATE_ON_START = 'true';
    const workerGrace = Number(named(objects, 'ConfigMap', 'benchmark-worker-config')!.data!.WORKER_SHUTDOWN_GRACE_MS);
    expect(kubernetesPolicyProblems(objects, contracts, budget, imageUid)).toEqual(
      expect.arrayContaining([
        `Deployment benchmark-worker: terminationGracePeriodSeconds gives 10000 ms; stopping needs ${Math.max(workerGrace, budget.shutdownDeadlineMs) + budget.marginMs} ms (preStop, shutdown, margin)`,
        'Deployment gateway: sets replicas although HorizontalPodAutoscaler gateway owns them',
        'Deployment trace-ingest: up to 24 replicas, but TRACE_TOPIC_PARTITIONS is 12',
        'Deployment prompt-service/prompt-service: runAsNonRoot is not true',
        'Deployment prompt-service/prompt-service: no memory limit',
        'Deployment gateway: MIGRATE_ON_START must be "false" (the migration Job migrates)',
      ]),
    );
  });

  it('on a missing autoscaler, and on a Secret the docs do not mention', () => {
    const objects = base().filter((o) => !(o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'benchmark-worker'));
    expect(autoscalingProblems(objects, AUTOSCALED)).toEqual(['Deployment benchmark-worker has no HorizontalPodAutoscaler']);
    expect(secretDocumentationProblems('nothing here', [{ name: 'cinetrace-secrets', key: 'REDIS_URL' }])).toEqual([
      'docs/deploy.md does not mention the Secret cinetrace-secrets',
      'docs/deploy.md does not mention the key REDIS_URL of Secret cinetrace-secrets',
    ]);
  });

  it('on an overlay image or patch that names nothing in the base', () => {
    // overlayProblems reads the overlay from disk; the base it compares with is what changes here.
    const objects = baseObjects().filter((o) => !(o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'trace-ingest'));
    for (const o of objects) for (const c of o.kind === 'Deployment' || o.kind === 'Job' ? containersOf(o) : []) c.image = c.image?.replace('cinetrace/gateway', 'cinetrace/edge');
    const problems = overlayProblems(overlayDirs()[0], objects);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/image cinetrace\/gateway is used by no container of the base/),
        expect.stringMatching(/does not set the registry and tag of cinetrace\/edge/),
        expect.stringMatching(/patch target HorizontalPodAutoscaler trace-ingest matches nothing/),
      ]),
    );
  });

  it('on a compose service stopping too soon or publishing ports it cannot scale with', () => {
    const compose = structuredClone(composeFile());
    compose.services['benchmark-worker'].stop_grace_period = '5s';
    compose.services['trace-ingest'].ports = ['8081:8081'];
    expect(composePolicyProblems(compose, contracts, budget).sort()).toEqual([
      expect.stringMatching(/^compose service benchmark-worker: stop_grace_period gives 5000 ms/),
      expect.stringMatching(/^compose service trace-ingest publishes host ports/),
    ]);
  });
});
