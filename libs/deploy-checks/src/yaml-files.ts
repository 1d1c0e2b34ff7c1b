import { parseAllDocuments } from 'yaml';
import { filesUnder, readText } from './repo';

/** Every YAML file the deployment consists of: deploy/** and the compose file. */
export function deploymentYamlFiles(): string[] {
  return [...filesUnder('deploy', /\.ya?ml$/), 'docker-compose.yml'];
}

/**
 * The documents of a YAML text, as plain values; throws naming the file and the first
 * problem when any document does not parse. Merge keys (`<<: *anchor`) are resolved, as
 * docker compose does.
 */
export function parseYamlDocuments(text: string, file: string): unknown[] {
  const documents = parseAllDocuments(text, { merge: true, uniqueKeys: true, prettyErrors: true });
  const list = Array.isArray(documents) ? documents : [documents];
  const values: unknown[] = [];
  for (const document of list) {
    const problem = document.errors[0] ?? document.warnings[0];
    if (problem) throw new Error(`${file}: ${problem.message}`);
    const value = document.toJS({ maxAliasCount: 100 });
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}

export const loadYaml = (file: string): unknown[] => parseYamlDocuments(readText(file), file);
