import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsRegistry } from './index';

const repo = join(__dirname, '..', '..', '..');
const docs = readFileSync(join(repo, 'docs', 'metrics.md'), 'utf8');
const dashboard = JSON.parse(readFileSync(join(repo, 'deploy', 'grafana', 'cinetrace.json'), 'utf8')) as {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
};

/** The work metrics this library defines (process metrics are prom-client's, documented as a family). */
async function workMetricNames(): Promise<string[]> {
  return (await metricsRegistry.getMetricsAsJSON()).map((m) => m.name).filter((name) => !/_(process|nodejs)_/.test(name));
}

describe('docs/metrics.md and the Grafana dashboard', () => {
  it('document every metric the library defines', async () => {
    const names = await workMetricNames();
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(docs).toContain(`\`${name}\``);
  });

  it('the dashboard queries only metrics that exist, with rate() or histogram_quantile() over counters and histograms', async () => {
    const names = new Set(await workMetricNames());
    const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
    expect(exprs.length).toBeGreaterThan(10);
    const queried = new Set<string>();
    for (const expr of exprs) {
      for (const [used] of expr.matchAll(/\b(cinetrace_\w+|http_request_duration_seconds\w*)/g)) {
        const base = used.replace(/_(bucket|count|sum)$/, '');
        expect(names).toContain(base);
        queried.add(base);
        if (/_total$|_(bucket|count)$/.test(used)) expect(expr).toMatch(/\b(rate|increase)\(/);
        if (used.endsWith('_bucket')) expect(expr).toContain('histogram_quantile(');
      }
    }
    // Every metric of the work has a panel.
    for (const name of names) if (name !== 'http_request_duration_seconds') expect(queried).toContain(name);
  });
});
