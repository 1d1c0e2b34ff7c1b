// 1. Every YAML file of the deployment parses (deploy/** and docker-compose.yml).
import { deploymentYamlFiles, loadYaml, parseYamlDocuments } from './yaml-files';

describe('YAML files of the deployment', () => {
  const files = deploymentYamlFiles();

  it('include the compose file, the base and at least one overlay', () => {
    expect(files).toContain('docker-compose.yml');
    expect(files).toContain('deploy/base/kustomization.yaml');
    expect(files.some((f) => f.startsWith('deploy/overlays/'))).toBe(true);
  });

  it.each(files)('%s parses, every document of it', (file) => {
    const documents = loadYaml(file);
    expect(documents.length).toBeGreaterThan(0);
    for (const document of documents) expect(typeof document).toBe('object');
  });

  it('a file that does not parse is reported by name', () => {
    expect(() => parseYamlDocuments('services:\n  a: [1, 2\n', 'broken.yml')).toThrow(/broken\.yml/);
    expect(() => parseYamlDocuments('a: 1\na: 2\n', 'duplicate.yml')).toThrow(/duplicate\.yml/);
  });
});
