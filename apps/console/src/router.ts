import { useEffect, useState } from 'react';

// Client-side routes on the History API: the gateway answers index.html for any console
// path, so /traces/abc can be reloaded or shared.

export type Route =
  | { page: 'sign-in' }
  | { page: 'projects' }
  | { page: 'traces'; search: string }
  | { page: 'trace'; id: string; span: string | null }
  | { page: 'benchmarks' }
  | { page: 'benchmark'; id: string; search: string }
  | { page: 'prompts'; search: string }
  | { page: 'prompt'; id: string; search: string }
  | { page: 'datasets' }
  | { page: 'dataset'; id: string }
  | { page: 'settings' }
  | { page: 'not-found' };

/** The list pages that have a page per resource under them: /benchmarks/bm_1 and so on. */
const ONE_OF = /^\/(benchmarks|prompts|datasets)\/([^/]+)$/;
const SINGULAR = { benchmarks: 'benchmark', prompts: 'prompt', datasets: 'dataset' } as const;

export function parseRoute(pathname: string, search: string): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { page: 'projects' };
  if (path === '/sign-in') return { page: 'sign-in' };
  if (path === '/projects') return { page: 'projects' };
  if (path === '/traces') return { page: 'traces', search };
  if (path === '/benchmarks') return { page: 'benchmarks' };
  if (path === '/prompts') return { page: 'prompts', search };
  if (path === '/datasets') return { page: 'datasets' };
  if (path === '/settings') return { page: 'settings' };
  const one = ONE_OF.exec(path);
  if (one) return { page: SINGULAR[one[1] as keyof typeof SINGULAR], id: decodeURIComponent(one[2]), search } as Route;
  const trace = /^\/traces\/([^/]+)$/.exec(path);
  if (trace) return { page: 'trace', id: decodeURIComponent(trace[1]), span: new URLSearchParams(search).get('span') };
  return { page: 'not-found' };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname, location.search));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname, location.search));
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return route;
}

/** A same-tab link that navigates without a reload (modified clicks open a new tab as usual). */
export function onLinkClick(event: { preventDefault(): void; button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }, to: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(to);
}
