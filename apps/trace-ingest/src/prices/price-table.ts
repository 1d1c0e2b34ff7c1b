import { MODEL_PRICE_UNITS, RESOLUTION_PATTERN, type ModelPriceEntry, type ModelPriceUnit } from '@cinetrace/contracts';
import { compileLinearRegex, type LinearRegex } from '@cinetrace/scorers';
import { baseModelName } from './model-names';
import { resolutionKey, type ResolutionKey, type SpanResolution } from './resolution';

/** A price entry made ready to match: its name lower-cased, its regex compiled (RE2, case-insensitive). */
interface CompiledEntry {
  name: string | null;
  regex: LinearRegex | null;
  unit: ModelPriceUnit;
  usd: number;
  resolution: ResolutionKey | null;
}

/** One source's entries (the project's, or the defaults), by how they match. */
class EntrySet {
  private readonly byName = new Map<string, CompiledEntry[]>();
  private readonly regexes: CompiledEntry[] = [];

  constructor(entries: readonly ModelPriceEntry[]) {
    for (const entry of entries) {
      const compiled = compile(entry);
      if (!compiled) continue;
      if (compiled.name === null) this.regexes.push(compiled);
      else this.byName.set(compiled.name, [...(this.byName.get(compiled.name) ?? []), compiled]);
    }
  }

  /**
   * The entries matching a model, best first: its exact name, then the name without a
   * provider prefix, then its family (baseModelName), then regexes; each in entry order.
   */
  matching(model: string): CompiledEntry[] {
    const exact = model.trim().toLowerCase();
    const names = [...new Set([exact, exact.slice(exact.lastIndexOf('/') + 1), baseModelName(model)])];
    const found = names.flatMap((name) => this.byName.get(name) ?? []);
    for (const entry of this.regexes) if (entry.regex!.test(model)) found.push(entry);
    return found;
  }
}

/**
 * An entry ready to match, or null for one that cannot be used. A PUT refuses such entries;
 * one stored under other rules is skipped rather than failing every batch of its project.
 */
function compile(entry: ModelPriceEntry): CompiledEntry | null {
  const resolution = entry.resolution ? checkedResolutionKey(entry.resolution) : null;
  if (resolution === undefined) return null;
  const base = { unit: entry.unit, usd: entry.usd, resolution };
  if (typeof entry.match === 'string') return { ...base, name: entry.match.trim().toLowerCase(), regex: null };
  try {
    return { ...base, name: null, regex: compileLinearRegex(entry.match.regex, 'i') };
  } catch {
    return null;
  }
}

/** An entry's resolution key; undefined when it is not one (resolutionKey takes checked labels). */
function checkedResolutionKey(label: string): ResolutionKey | undefined {
  return RESOLUTION_PATTERN.test(label.trim()) ? resolutionKey(label) : undefined;
}

/** Candidates for one unit: the project's, then the defaults', each best first. */
type Candidates = [project: CompiledEntry[], defaults: CompiledEntry[]];

/**
 * What one model costs per unit. A unit none of whose prices names a resolution has its
 * price worked out once (`flat`); the others pick by the span's resolution (priceOf), which
 * the caller reads only when `byResolution` says a price depends on it.
 */
export class ModelPrices {
  private readonly flat = new Map<ModelPriceUnit, number>();
  private readonly resolutionUnits = new Map<ModelPriceUnit, Candidates>();

  constructor(project: CompiledEntry[], defaults: CompiledEntry[]) {
    for (const unit of MODEL_PRICE_UNITS) {
      const candidates: Candidates = [project.filter((e) => e.unit === unit), defaults.filter((e) => e.unit === unit)];
      if (candidates.some((list) => list.some((e) => e.resolution !== null))) this.resolutionUnits.set(unit, candidates);
      else {
        const first = candidates[0][0] ?? candidates[1][0];
        if (first) this.flat.set(unit, first.usd);
      }
    }
  }

  /** Whether a price depends on the span's resolution: only then is it read. */
  get byResolution(): boolean {
    return this.resolutionUnits.size > 0;
  }

  /** Whether any unit has a price: a model without is not priced at all. */
  get empty(): boolean {
    return this.flat.size === 0 && this.resolutionUnits.size === 0;
  }

  /**
   * USD per `unit`, or undefined. The project's prices win over the defaults; within each, a
   * price for the span's exact size, then for its shorter side (`1080p`), then one without
   * resolution; a price for another resolution never applies.
   */
  priceOf(unit: ModelPriceUnit, span: SpanResolution | null): number | undefined {
    const flat = this.flat.get(unit);
    if (flat !== undefined) return flat;
    const candidates = this.resolutionUnits.get(unit);
    if (!candidates) return undefined;
    for (const list of candidates) {
      const chosen =
        (span && ((span.size && list.find((e) => e.resolution === span.size)) || list.find((e) => e.resolution === span.shortSide))) || list.find((e) => e.resolution === null);
      if (chosen) return chosen.usd;
    }
    return undefined;
  }
}

/** Models a table remembers the prices of: a client may send any model names, the memory stays bounded. */
const MODELS_REMEMBERED = 1000;

/**
 * A project's price table: its entries, then the shipped defaults. Compiled once per version
 * of the project's entries; the prices of each model are worked out the first time a span
 * names it (regexes tested then), and after that cost one map lookup.
 */
export class PriceTable {
  private readonly models = new Map<string, ModelPrices | null>();

  private constructor(
    private readonly project: EntrySet,
    private readonly defaults: EntrySet,
  ) {}

  static of(project: readonly ModelPriceEntry[], defaults: PriceTableDefaults): PriceTable {
    return new PriceTable(new EntrySet(project), defaults.set);
  }

  /** The prices of `model`, or null when no entry names it. */
  pricesOf(model: string): ModelPrices | null {
    let prices = this.models.get(model);
    if (prices === undefined) {
      const found = new ModelPrices(this.project.matching(model), this.defaults.matching(model));
      prices = found.empty ? null : found;
      if (this.models.size >= MODELS_REMEMBERED) this.models.delete(this.models.keys().next().value!);
      this.models.set(model, prices);
    }
    return prices;
  }
}

/** The shipped defaults, compiled once for every table. */
export class PriceTableDefaults {
  readonly set: EntrySet;

  constructor(entries: readonly ModelPriceEntry[]) {
    this.set = new EntrySet(entries);
  }
}
