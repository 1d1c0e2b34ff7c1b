// 2. Every app of apps/ (but all-in-one) has a Deployment and a Service in the manifests and a
//    service in docker-compose.yml; every image and command there names an app that exists.
import { composeCoverageProblems } from './compose-checks';
import { kubernetesCoverageProblems } from './kubernetes-checks';
import { type K8sObject, containersOf, named } from './kubernetes';
import { baseObjects, composeFile, manifestSets } from './manifests';
import { deployableApps, NOT_DEPLOYED, packageDirs, readText } from './repo';

const existingApps = packageDirs('apps');
const deployable = deployableApps();

describe('apps and their deployment', () => {
  it('every directory of apps/ with a main.ts but all-in-one is deployed', () => {
    const withMain = existingApps.filter((app) => {
      try {
        return readText(`apps/${app}/src/main.ts`).length > 0;
      } catch {
        return false;
      }
    });
    expect(deployable).toEqual(withMain.filter((app) => !NOT_DEPLOYED.has(app)));
    expect(deployable.length).toBeGreaterThanOrEqual(6);
  });

  describe.each(manifestSets().map((set) => [set.name, set.objects] as const))('%s', (_name, objects) => {
    it('has a Deployment and a Service per app, each running an existing app', () => {
      expect(kubernetesCoverageProblems(objects, deployable, existingApps)).toEqual([]);
    });
  });

  it('docker-compose.yml has a service per app, each building an existing app', () => {
    expect(composeCoverageProblems(composeFile(), deployable, existingApps)).toEqual([]);
  });
});

describe('the coverage checks fail', () => {
  const base = (): K8sObject[] => structuredClone(baseObjects());

  it('on a missing Deployment, and on an image or script of an app that does not exist', () => {
    const objects = base().filter((o) => !(o.kind === 'Deployment' && o.metadata.name === 'trace-ingest'));
    containersOf(named(objects, 'Deployment', 'gateway')!)[0].image = 'cinetrace/gatway:1.0';
    const job = objects.find((o) => o.kind === 'Job')!;
    containersOf(job)[0].args = ['node', 'apps/gatewey/dist/migrate.js'];
    const problems = kubernetesCoverageProblems(objects, deployable, existingApps);
    expect(problems).toEqual(
      expect.arrayContaining([
        'no Deployment trace-ingest',
        expect.stringMatching(/Deployment gateway runs image cinetrace\/gatway:1.0/),
        expect.stringMatching(/apps\/gatewey\/dist\/… in the image of gateway/),
      ]),
    );
  });

  it('on a container `command`, which would drop tini', () => {
    const objects = base();
    containersOf(named(objects, 'Deployment', 'prompt-service')!)[0].command = ['node', 'apps/prompt-service/dist/main.js'];
    expect(kubernetesCoverageProblems(objects, deployable, existingApps)).toEqual([expect.stringMatching(/prompt-service: sets `command`/)]);
  });

  it('on a compose service missing, or building another app', () => {
    const compose = structuredClone(composeFile());
    delete compose.services['benchmark-worker'];
    (compose.services['gateway'].build as { args: Record<string, string> }).args.APP = 'gatewy';
    expect(composeCoverageProblems(compose, deployable, existingApps)).toEqual(
      expect.arrayContaining(['docker-compose.yml has no service benchmark-worker', 'compose service gateway: APP=gatewy names no directory of apps/']),
    );
  });
});
