/**
 * The family a model name belongs to, as price tables name models: lower case, without
 * what callers put around the name a provider prices: a provider or route prefix
 * (`openai/gpt-4o`, `models/gemini-2.5-pro`, Bedrock's `us.anthropic.claude-…`), and
 * version suffixes (`-2024-08-06`, `-20250929`, `@20240620`, `-001`, `-latest`,
 * `-preview-06-17`, Bedrock's `-v2:0`, Google's `-generate-001`). Claude names written
 * with dots (`claude-3.5-sonnet`, OpenRouter's) read as Anthropic writes them, with dashes.
 * Our own patterns on a name of at most 256 characters: no user input reaches a regex here.
 */
export function baseModelName(model: string): string {
  let name = model.trim().toLowerCase();
  name = name.slice(name.lastIndexOf('/') + 1);
  name = name.replace(PROVIDER_DOT_PREFIX, '');
  for (let before = ''; before !== name;) {
    before = name;
    name = name.replace(VERSION_SUFFIX, '');
  }
  if (name.startsWith('claude-')) name = name.replace(DOTTED_VERSION, '$1-$2');
  return name;
}

/** `anthropic.`, `us.anthropic.`, `google.`: a vendor written before a dot (Bedrock's ids), when a name follows. */
const PROVIDER_DOT_PREFIX = /^(?:[a-z]{2,4}\.)?[a-z]+\.(?=[a-z])/;

/** One version suffix at the end of the name; stripped until none is left. */
const VERSION_SUFFIX = /(?:-v\d+:\d+|@\d{8}|-\d{4}-\d{2}-\d{2}|-\d{8}|-\d{3}|-latest|-preview(?:-\d{2}-\d{2,4})?|-exp(?:-\d{4})?|-generate)$/;

const DOTTED_VERSION = /(\d)\.(\d)/g;
