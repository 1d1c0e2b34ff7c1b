import { parseAllDocuments, type ScalarTag } from 'yaml';
import { filesUnder, readText } from './repo';

/** The compose files: docker-compose.yml, and the overrides applied on top of it. */
export const COMPOSE_FILE = 'docker-compose.yml';
export const COMPOSE_OVERRIDES = ['docker-compose.tls.yml'];

/** Every YAML file the deployment consists of: deploy/** and the compose files. */
export function deploymentYamlFiles(): string[] {
  return [...filesUnder('deploy', /\.ya?ml$/), COMPOSE_FILE, ...COMPOSE_OVERRIDES];
}

/**
 * What compose's `!reset` tag reads as: an override's way to remove a value of the file it
 * overrides (mergeCompose drops the key). A string, so that it survives structuredClone.
 */
export const COMPOSE_RESET = '\u0000compose !reset';
const composeReset: ScalarTag = { tag: '!reset', resolve: () => COMPOSE_RESET };

/**
 * The documents of a YAML text, as plain values; throws naming the file and the first
 * problem when any document does not parse. Merge keys (`<<: *anchor`) are resolved, as
 * docker compose does; its `!reset` reads as COMPOSE_RESET.
 */
export function parseYamlDocuments(text: string, file: string): unknown[] {
  const documents = parseAllDocuments(text, { merge: true, uniqueKeys: true, prettyErrors: true, customTags: [composeReset] });
  const list = Array.isArray(documents) ? documents : [documents];
  const values: unknown[] = [];
  for (const document of list) {
    const problem = document.errors[0] ?? document.warnings[0];
    if (problem) throw new Error(`${file}: ${problem.message}`);
    const value: unknown = document.toJS({ maxAliasCount: 100 });
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}

export const loadYaml = (file: string): unknown[] => parseYamlDocuments(readText(file), file);
