import { isSecretReference, secretOrigin, type SecretUse } from '@cinetrace/contracts';
import type { ScorerSpec } from '@cinetrace/scorers';
import type { TargetSpec } from './target-rules';

/**
 * Every `{ secret }` a valid benchmark names, with the field naming it and the origin its value
 * would be sent to (scheme, host and port): what project-service checks (the secret exists in
 * the organization, and allows that origin).
 */
export function credentialUses(target: TargetSpec, scorers: ScorerSpec[]): SecretUse[] {
  const uses: SecretUse[] = [];
  const targetUrl = target.type === 'http' ? target.url : target.type === 'openai_chat' ? target.baseUrl : undefined;
  if (targetUrl !== undefined) {
    if (target.apiKey) uses.push(use('target.apiKey', target.apiKey.secret, targetUrl));
    for (const [name, value] of Object.entries(target.headers ?? {})) {
      if (isSecretReference(value)) uses.push(use(`target.headers.${name}`, value.secret, targetUrl));
    }
  }
  scorers.forEach((scorer, i) => {
    const at = `scorers[${i}].config`;
    if (scorer.type === 'llm_judge' && scorer.config.apiKey) uses.push(use(`${at}.apiKey`, scorer.config.apiKey.secret, scorer.config.baseUrl));
    if (scorer.type === 'http') {
      for (const [name, value] of Object.entries(scorer.config.headers ?? {})) {
        if (isSecretReference(value)) uses.push(use(`${at}.headers.${name}`, value.secret, scorer.config.url));
      }
    }
  });
  return uses;
}

function use(path: string, name: string, url: string): SecretUse {
  // The URL passed the target and scorer rules (http or https): it has an origin.
  return { path, name, origin: secretOrigin(url) ?? url };
}
