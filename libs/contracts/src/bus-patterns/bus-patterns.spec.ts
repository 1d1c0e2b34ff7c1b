import { BUS_REQUEST_SHAPES } from '../bus-request-shapes';
import { BUS_PATTERNS, Patterns, READ_ONLY_PATTERNS, ServicePatterns, ServicePings, serviceAnswering, type ServiceName } from '../patterns';
import { ServiceNames } from '../wire-names';
import { busPattern, pingPattern } from './bus-pattern';
import { declaredOnce } from './declared-once';

// Each service's request topic carries its own domain's names: a pattern owned by another
// service than its name says would be subscribed to where nobody looks for it.
const PREFIXES: Record<ServiceName, string> = {
  [ServiceNames.ProjectService]: 'project.',
  [ServiceNames.PromptService]: 'prompt.',
  [ServiceNames.TraceIngest]: 'trace.',
  [ServiceNames.BenchmarkService]: 'benchmark.',
  [ServiceNames.MediaService]: 'media.',
};

describe('bus patterns, each declared once', () => {
  const services = Object.values(ServiceNames);
  const wires = Object.values(Patterns);

  it('give every pattern to exactly one service, which answers it', () => {
    const subscribed = services.flatMap((service) => ServicePatterns[service]);
    expect([...subscribed].sort()).toEqual([...wires].sort());
    for (const service of services) for (const pattern of ServicePatterns[service]) expect(serviceAnswering(pattern)).toBe(service);
    expect(serviceAnswering('nobody.answers.this')).toBeUndefined();
  });

  it("name each pattern in its owner's domain", () => {
    const misplaced = Object.values(BUS_PATTERNS).filter((entry) => !entry.wire.startsWith(PREFIXES[entry.service]));
    expect(misplaced.map((entry) => `${entry.wire} (owned by ${entry.service})`)).toEqual([]);
  });

  it('give each service one ping, which it answers and which is read-only', () => {
    expect(Object.keys(ServicePings).sort()).toEqual([...services].sort());
    for (const service of services) {
      expect(ServicePatterns[service]).toContain(ServicePings[service]);
      expect(READ_ONLY_PATTERNS.has(ServicePings[service])).toBe(true);
      expect(Object.values(BUS_PATTERNS).filter((entry) => entry.service === service && entry.ping)).toHaveLength(1);
    }
  });

  it('mark as read-only only what changes nothing when answered twice', () => {
    expect(READ_ONLY_PATTERNS.has(Patterns.PromptGet)).toBe(true);
    expect(READ_ONLY_PATTERNS.has(Patterns.MediaFrame)).toBe(true);
    // Resolving a key records when it was last used.
    expect(READ_ONLY_PATTERNS.has(Patterns.AuthResolve)).toBe(false);
    expect(READ_ONLY_PATTERNS.has(Patterns.PromptCreate)).toBe(false);
  });

  it('give every pattern the shape its requests are checked against', () => {
    expect(Object.keys(BUS_REQUEST_SHAPES).sort()).toEqual([...wires].sort());
    expect(BUS_REQUEST_SHAPES[Patterns.PromptUpdate]).toEqual({ ctx: 'project', strings: ['id'] });
    expect(BUS_REQUEST_SHAPES[Patterns.SecretResolve]).toEqual({ strings: ['projectId', 'name', 'origin', 'replyKey'] });
  });

  it('refuse a name or a wire name declared twice', () => {
    const one = { A: pingPattern('project.ping', ServiceNames.ProjectService) };
    expect(() => declaredOnce(one, { A: pingPattern('prompt.ping', ServiceNames.PromptService) })).toThrow("the bus pattern A ('prompt.ping') is declared twice");
    expect(() => declaredOnce(one, { B: pingPattern('project.ping', ServiceNames.PromptService) })).toThrow("the bus pattern B ('project.ping') is declared twice");
    expect(Object.keys(declaredOnce(one, { B: pingPattern('prompt.ping', ServiceNames.PromptService) }))).toEqual(['A', 'B']);
  });

  it('do not compile without their request and reply types, owner, read-only flag or shape', () => {
    const spec = { wire: 'x.y', service: ServiceNames.ProjectService, readOnly: true, shape: {} } as const;
    // @ts-expect-error no request or reply type
    busPattern()(spec);
    // @ts-expect-error no reply type
    busPattern<{ id: string }>()(spec);
    // @ts-expect-error no owner
    busPattern<{ id: string }, { ok: true }>()({ wire: 'x.y', readOnly: true, shape: {} });
    // @ts-expect-error an owner that is no service
    busPattern<{ id: string }, { ok: true }>()({ wire: 'x.y', service: 'nobody', readOnly: true, shape: {} });
    // @ts-expect-error no read-only flag
    busPattern<{ id: string }, { ok: true }>()({ wire: 'x.y', service: ServiceNames.ProjectService, shape: {} });
    // @ts-expect-error no shape
    busPattern<{ id: string }, { ok: true }>()({ wire: 'x.y', service: ServiceNames.ProjectService, readOnly: true });
    expect(busPattern<{ id: string }, { ok: true }>()(spec)).toEqual(spec);
  });
});
