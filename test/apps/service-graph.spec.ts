import { ServiceNames } from '@cinetrace/contracts';
import { join } from 'node:path';
import { findCycle, readServiceGraph } from './service-graph';

// Services call each other in one direction only (docs/architecture.md, "Service dependencies"):
// a cycle would make each wait on the other to start, answer and change. The graph is read from
// the code, so a new request that closes a cycle fails here, naming it.
describe('the service dependency graph', () => {
  const { graph, unanswered } = readServiceGraph(join(__dirname, '..', '..'));

  it('has no cycle', () => {
    const cycle = findCycle(graph);
    expect(cycle && `a cycle: ${cycle.join(' → ')}`).toBeNull();
  });

  it('asks only patterns a service answers', () => {
    expect(unanswered).toEqual([]);
  });

  it('is read from the code: the requests each app makes are its edges', () => {
    const services = Object.values(ServiceNames).sort();
    expect(graph.gateway).toEqual(services);
    expect(graph['benchmark-worker']).toEqual(expect.arrayContaining([ServiceNames.ProjectService, ServiceNames.MediaService, ServiceNames.BenchmarkService]));
    expect(graph[ServiceNames.BenchmarkService]).toEqual(expect.arrayContaining([ServiceNames.PromptService, ServiceNames.ProjectService, ServiceNames.MediaService]));
    expect(graph[ServiceNames.TraceIngest]).toEqual([ServiceNames.MediaService]);
    expect(graph[ServiceNames.PromptService]).toEqual([]);
    expect(graph[ServiceNames.ProjectService]).toEqual([]);
  });

  it('names a cycle when there is one, and finds none in a graph without', () => {
    expect(findCycle({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] })).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle({ 'prompt-service': ['benchmark-service'], 'benchmark-service': ['prompt-service'] })).toEqual(['benchmark-service', 'prompt-service', 'benchmark-service']);
    expect(findCycle({ a: ['b', 'c'], b: ['c'], c: [] })).toBeNull();
  });
});
