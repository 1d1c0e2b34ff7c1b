// 7. The real tools, where they are installed: `docker compose config` validates the compose
//    file against the Compose specification; `kubectl kustomize` (or `kustomize build`)
//    renders the base and each overlay.
//
// Honesty about absent tools: these tests are not skipped when a tool is missing — they
// still assert what can be known without it (the files parse, and the parse-based checks of
// the other specs ran on them) and print that the tool's own validation did not happen, so
// a green run on a machine without the tool is never mistaken for the tool having passed.
// The detection is by exit code: `docker compose version` fails when only the docker CLI is
// installed, without its compose plugin.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseObjects, composeFile, composeSets, overlayDirs, render } from './manifests';
import { composePluginPresent, kustomizeCommand, run } from './tools';

const note = (message: string) => process.stdout.write(`[deploy-checks] ${message}\n`);

describe('docker compose config', () => {
  const present = composePluginPresent();

  it(`${present ? 'accepts' : '(compose plugin absent: not run) parse-based checks only for'} docker-compose.yml`, () => {
    if (!present) {
      note(
        '`docker compose version` failed: the compose plugin is not installed, so `docker compose config` did not validate docker-compose.yml; only the parse-based checks ran.',
      );
      expect(Object.keys(composeFile().services).length).toBeGreaterThan(0);
      return;
    }
    // The file requires BOOTSTRAP_API_KEY from the environment (never a default); any value does for validation.
    const result = run('docker', ['compose', '-f', 'docker-compose.yml', 'config', '--quiet'], { BOOTSTRAP_API_KEY: 'x'.repeat(32) });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it(`${present ? 'accepts' : '(compose plugin absent: not run) parse-based checks only for'} docker-compose.yml with docker-compose.tls.yml`, () => {
    if (!present) {
      note(
        'the compose plugin is not installed: `docker compose config` did not validate docker-compose.tls.yml (its !reset tags need Compose 2.24+); only the parse-based checks ran.',
      );
      expect(composeSets().map((set) => set.name)).toContain('docker-compose.yml + docker-compose.tls.yml');
      return;
    }
    // The secret files must exist for compose to accept the file; empty ones do for validation.
    const dir = mkdtempSync(join(tmpdir(), 'compose-secrets-'));
    for (const name of Object.keys((composeSets()[1].compose.secrets as Record<string, unknown> | undefined) ?? {})) writeFileSync(join(dir, name), '');
    const result = run('docker', ['compose', '-f', 'docker-compose.yml', '-f', 'docker-compose.tls.yml', 'config', '--quiet'], {
      BOOTSTRAP_API_KEY: 'x'.repeat(32),
      SECRETS_KEY: 'x'.repeat(44),
      KAFKA_BROKERS: 'kafka.example.internal:9096',
      CINETRACE_SECRETS_DIR: dir,
    });
    rmSync(dir, { recursive: true, force: true });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  if (present) {
    it('refuses to start without BOOTSTRAP_API_KEY', () => {
      const result = run('docker', ['compose', '-f', 'docker-compose.yml', 'config', '--quiet'], { BOOTSTRAP_API_KEY: '' });
      expect(result.status).not.toBe(0);
      expect(result.stderr).toMatch(/BOOTSTRAP_API_KEY/);
    });
  }
});

describe('kustomize', () => {
  const tool = kustomizeCommand();

  it.each(['deploy/base', ...overlayDirs()])(`${tool ? `${tool.command} renders` : '(no kubectl or kustomize: not rendered) parse-based checks only for'} %s`, (dir) => {
    if (!tool) {
      note(`neither kubectl nor kustomize is installed: ${dir} was not rendered; only the parse-based checks ran.`);
      expect(baseObjects().length).toBeGreaterThan(0);
      return;
    }
    const rendering = render(dir);
    expect(rendering.error).toBeUndefined();
    // Every object of the base comes out (overlays change objects, they add or drop none here).
    const key = (o: { kind: string; metadata: { name: string } }) => `${o.kind}/${o.metadata.name}`;
    expect(rendering.objects!.map(key).sort()).toEqual(baseObjects().map(key).sort());
    if (dir !== 'deploy/base') for (const o of rendering.objects!) expect(o.metadata.namespace).toBeTruthy();
  });
});
