/**
 * What every HTML page the gateway serves (the console, the API reference at /docs) is held
 * to: the app's own files only, nothing inline that could run, no plugins, no framing
 * (clickjacking). A page loosens a directive only where it must, and says why beside it.
 */
const PAGE_DIRECTIVES = {
  'default-src': "'self'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self'",
  'media-src': "'self'",
  'connect-src': "'self'",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
} as const;

type Directive = keyof typeof PAGE_DIRECTIVES;

/** The Content-Security-Policy of a page: the common rules, with `loosened` directives replaced. */
export function pageSecurityPolicy(loosened: Partial<Record<Exclude<Directive, 'script-src' | 'object-src' | 'frame-ancestors'>, string>>): string {
  return Object.entries({ ...PAGE_DIRECTIVES, ...loosened })
    .map(([directive, sources]) => `${directive} ${sources}`)
    .join('; ');
}

/** The headers every page carries beside its policy: no content sniffing, no referrer sent on. */
export const PAGE_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' } as const;
