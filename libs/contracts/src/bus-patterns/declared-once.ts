import type { AnyBusPattern } from './bus-pattern';

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * The services' declarations as one record, refusing (when the module loads, so every process
 * and test fails at once) a name or a wire name declared twice: two services subscribing to one
 * pattern would race for its requests.
 */
export function declaredOnce<Groups extends ReadonlyArray<Readonly<Record<string, AnyBusPattern>>>>(...groups: Groups): UnionToIntersection<Groups[number]> {
  const all: Record<string, AnyBusPattern> = {};
  const wires = new Set<string>();
  for (const [name, entry] of groups.flatMap((group) => Object.entries(group))) {
    if (name in all || wires.has(entry.wire)) throw new Error(`the bus pattern ${name} ('${entry.wire}') is declared twice`);
    all[name] = entry;
    wires.add(entry.wire);
  }
  return all as UnionToIntersection<Groups[number]>;
}
