// 3. Every variable each app validates at boot (its env class's properties, and the names its
//    main.ts passes to requireVariables) is set for it in compose and in the manifests
//    (literal, ConfigMap key, envFrom ConfigMap or Secret), and nothing else is: a variable
//    the app does not read is a typo or meant for another app. The one ALLOWANCE — an
//    optional Secret / env_file of unlisted names for an app that looks variables up by
//    run-time names (project-service: the model keys OUTBOUND_ENV_SECRETS lists) — is in env-check.ts.
//    The variable lists come from the code (app-contract.ts), never from this file.
import { handsOnWholeEnvironment, requiredVariablesIn } from './app-contract';
import { allContracts } from './budget';
import { composeAddressProblems, composeEnvironmentProblems, composeMigrationProblems, composeSecretProblems } from './compose-checks';
import { kubernetesEnvironmentProblems, migrationJobProblems } from './kubernetes-checks';
import { type K8sObject, containersOf, named } from './kubernetes';
import { mergeCompose, serviceEnvironment } from './compose';
import { baseObjects, composeFile, composeSets, manifestSets } from './manifests';
import { readText } from './repo';
import { parseYamlDocuments } from './yaml-files';

const contracts = allContracts();

describe('what the apps read, from their code', () => {
  it.each([...contracts.keys()])('%s: env class properties and requireVariables names', (app) => {
    const contract = contracts.get(app)!;
    expect(contract.validated.length).toBeGreaterThan(0);
    expect(contract.validated).toContain('LOG_LEVEL');
    // The distributed mode's requirements are names of the env class too (validated there).
    for (const name of contract.required) expect(contract.validated).toContain(name);
    expect(contract.required).toEqual(requiredVariablesIn(readText(`apps/${app}/src/main.ts`)));
  });

  it('only apps that hand the whole environment on read variables by run-time names', () => {
    const byName = [...contracts.values()].filter((c) => c.readsNamedAtRuntime).map((c) => c.app);
    expect(byName).toEqual(['project-service']);
  });

  it('requireVariables calls are read literally, and an unreadable one is an error', () => {
    expect(requiredVariablesIn("requireVariables(['A', 'B_2'], 'x');\n// requireVariables(['C'])\nrequireVariables([\"D\"], y)")).toEqual(['A', 'B_2', 'D']);
    expect(() => requiredVariablesIn('requireVariables(names, "x")', 'main.ts')).toThrow(/main\.ts: 1 requireVariables call/);
    expect(handsOnWholeEnvironment('f({ env: process.env })')).toBe(true);
    expect(handsOnWholeEnvironment('const a = process.env.LOG_LEVEL; const b = process.env["X"];\n// process.env by default')).toBe(false);
  });
});

describe.each(manifestSets().map((set) => [set.name, set.objects] as const))('%s', (_name, objects) => {
  it('gives each Deployment exactly the variables its app reads', () => {
    expect(kubernetesEnvironmentProblems(objects, contracts)).toEqual([]);
  });

  it('migrates each app with a database in a Job container, with what its migrate.js reads', () => {
    expect(migrationJobProblems(objects, contracts)).toEqual([]);
  });
});

describe.each(composeSets().map((set) => [set.name, set.compose] as const))('%s', (_name, compose) => {
  it('gives each app service exactly the variables its app reads', () => {
    expect(composeEnvironmentProblems(compose, contracts)).toEqual([]);
  });

  it('points addresses (Kafka, PostgreSQL, Redis) at services of the file', () => {
    expect(composeAddressProblems(compose)).toEqual([]);
  });

  it('migrates at start, or runs a one-shot migration first', () => {
    expect(composeMigrationProblems(compose, contracts)).toEqual([]);
  });

  it('mounts every secret file a <NAME>_FILE names, and defines every secret it mounts', () => {
    expect(composeSecretProblems(compose)).toEqual([]);
  });
});

describe('docker-compose.tls.yml', () => {
  const tls = composeSets().find((set) => set.name.endsWith('docker-compose.tls.yml'))!.compose;

  it('gives every connection secret as a file, and no plaintext connection', () => {
    for (const [app, contract] of contracts) {
      const given = serviceEnvironment(tls.services[app]).variables;
      for (const name of ['DATABASE_URL', 'REDIS_URL', 'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'].filter((n) => contract.reads.has(n))) {
        expect([app, name, given.has(name)]).toEqual([app, name, false]);
        expect([app, `${name}_FILE`, given.get(`${name}_FILE`)?.value]).toEqual([app, `${name}_FILE`, expect.stringMatching(/^\/run\/secrets\//)]);
      }
      if (contract.reads.has('KAFKA_SSL')) expect([app, given.get('KAFKA_SSL')?.value, given.get('KAFKA_SASL_MECHANISM')?.value]).toEqual([app, 'true', 'scram-sha-512']);
      if (contract.reads.has('DATABASE_URL')) expect([app, given.get('DATABASE_SSL_CA_FILE')?.value]).toEqual([app, '/run/secrets/postgres-ca.crt']);
      if (contract.reads.has('REDIS_URL')) expect([app, given.get('REDIS_TLS_CA_FILE')?.value]).toEqual([app, '/run/secrets/redis-ca.crt']);
    }
  });
});

describe('the environment checks fail', () => {
  const base = (): K8sObject[] => structuredClone(baseObjects());

  it('on a misspelt variable: the real one is missing and the typo is read by nobody', () => {
    const objects = base();
    const env = containersOf(named(objects, 'Deployment', 'gateway')!)[0].env!;
    env.find((e) => e.name === 'LOG_LEVEL')!.name = 'LOG_LEVLE';
    expect(kubernetesEnvironmentProblems(objects, contracts)).toEqual([
      'Deployment gateway: LOG_LEVEL is read by the app but not set',
      'Deployment gateway: LOG_LEVLE (from ConfigMap cinetrace-shared/LOG_LEVEL) is given but the app does not read it',
    ]);
  });

  it('on a ConfigMap key meant for another app, and on a ConfigMap key that does not exist', () => {
    const objects = base();
    named(objects, 'ConfigMap', 'prompt-service-config')!.data!.TRACE_TOPIC_PARTITIONS = '12';
    const env = containersOf(named(objects, 'Deployment', 'trace-ingest')!)[0].env!;
    env.find((e) => e.name === 'KAFKA_BROKERS')!.valueFrom!.configMapKeyRef!.key = 'KAFKA_BROKER';
    expect(kubernetesEnvironmentProblems(objects, contracts)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Deployment prompt-service: TRACE_TOPIC_PARTITIONS .* does not read it/),
        'Deployment trace-ingest: KAFKA_BROKERS refers to key KAFKA_BROKER of ConfigMap cinetrace-shared, which it does not have',
      ]),
    );
  });

  it('on unlisted variables for an app that does not look names up, or from a required source', () => {
    const objects = base();
    containersOf(named(objects, 'Deployment', 'benchmark-worker')!)[0].envFrom!.push({ secretRef: { name: 'cinetrace-model-keys', optional: true } });
    const projects = containersOf(named(objects, 'Deployment', 'project-service')!)[0];
    projects.envFrom!.find((f) => f.secretRef)!.secretRef!.optional = false;
    const problems = kubernetesEnvironmentProblems(objects, contracts);
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Deployment benchmark-worker: Secret cinetrace-model-keys \(envFrom\) gives variables that cannot be checked/),
        expect.stringMatching(/^Deployment project-service: Secret cinetrace-model-keys \(envFrom\) must be optional/),
      ]),
    );
  });

  it('on a Job container migrating without DATABASE_URL', () => {
    const objects = base();
    const job = objects.find((o) => o.kind === 'Job')!;
    const container = containersOf(job).find((c) => c.name === 'prompt-service')!;
    container.env = [];
    expect(migrationJobProblems(objects, contracts)).toEqual([expect.stringMatching(/prompt-service: DATABASE_URL is read by the app but not set/)]);
  });

  it('on a compose service missing a variable or pointing at a service that does not exist', () => {
    const compose = structuredClone(composeFile());
    const env = compose.services['trace-ingest'].environment as Record<string, unknown>;
    delete env.TRACE_TOPIC_PARTITIONS;
    env.KAFKA_BROKERS = 'kafak:9092';
    expect(composeEnvironmentProblems(compose, contracts)).toEqual(['compose service trace-ingest: TRACE_TOPIC_PARTITIONS is read by the app but not set']);
    expect(composeAddressProblems(compose)).toEqual(['compose service trace-ingest: KAFKA_BROKERS points at kafak, which is not a service of the file']);
  });
});

describe('compose overrides', () => {
  it('merge as docker compose does: maps key by key, sequences appended, commands replaced, !reset removed', () => {
    const [override] = parseYamlDocuments(
      ['services:', '  a:', '    environment: { A: "2", B: !reset null, C: "3" }', '    secrets: [s2]', '    command: [new]', 'secrets: { s2: { file: ./s2 } }'].join('\n'),
      'override.yml',
    );
    const base = { services: { a: { image: 'x', environment: { A: '1', B: 'plain' }, secrets: ['s1'], command: ['old'] } }, secrets: { s1: { file: './s1' } } };
    expect(mergeCompose(base, override)).toEqual({
      services: { a: { image: 'x', environment: { A: '2', C: '3' }, secrets: ['s1', 's2'], command: ['new'] } },
      secrets: { s1: { file: './s1' }, s2: { file: './s2' } },
    });
  });

  it('fail on a _FILE at a secret the service does not mount, and on secrets undefined or unused', () => {
    const compose = structuredClone(composeSets().find((set) => set.name.endsWith('docker-compose.tls.yml'))!.compose);
    compose.services['gateway'].secrets = (compose.services['gateway'].secrets as string[]).filter((s) => s !== 'database-url');
    (compose.services['benchmark-worker'].secrets as string[]).push('kafka-ca.pem');
    (compose.secrets as Record<string, unknown>)['unused'] = { file: './unused' };
    expect(composeSecretProblems(compose).sort()).toEqual([
      'compose secret unused is mounted by no service',
      'compose service benchmark-worker mounts secret kafka-ca.pem, which the file does not define',
      'compose service gateway: DATABASE_URL_FILE reads /run/secrets/database-url, but the service mounts no secret database-url',
    ]);
  });

  it('fail when an override gives a secret both plainly and as a file', () => {
    const compose = structuredClone(composeSets().find((set) => set.name.endsWith('docker-compose.tls.yml'))!.compose);
    (compose.services['prompt-service'].environment as Record<string, unknown>).DATABASE_URL = 'postgres://u:p@postgres:5432/x';
    expect(composeEnvironmentProblems(compose, contracts)).toEqual(['compose service prompt-service: DATABASE_URL and DATABASE_URL_FILE are both set; the app refuses that']);
  });
});
