import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral, ValueTransformer } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * An entity's rows for hot paths that skip TypeORM's `find` and `update`: the select list is
 * built once from the entity's metadata, and rows read as arrays (`selectArrays`) are
 * hydrated by the columns' own rules, as `find` hydrates them (simple-json parsed, then the
 * column's transformer, NULL included). TypeORM builds, aliases and parses a query on every
 * call: in benchmark-service that cost more CPU than the statements themselves, and its
 * texts could not be kept prepared.
 */
export class EntityRows<T extends ObjectLiteral> {
  /** The columns read, quoted and comma-separated, in the order `fromRow` takes their values. */
  readonly columns: string;
  private readonly read: ColumnMetadata[];
  private readonly byProperty: Map<string, ColumnMetadata>;

  constructor(
    private readonly metadata: EntityMetadata,
    properties?: ReadonlyArray<keyof T & string>,
  ) {
    if (metadata.columns.some((column) => Array.isArray(column.transformer)))
      throw new Error(`${metadata.name}: a column has several transformers, which entityRows does not apply`);
    this.byProperty = new Map(metadata.columns.map((column) => [column.propertyName, column]));
    this.read = properties ? properties.map((property) => this.columnOf(property)) : metadata.columns;
    this.columns = this.read.map((column) => `"${column.databaseName}"`).join(', ');
  }

  /** The entity read from a row of `columns`' values. */
  fromRow(values: unknown[]): T {
    const entity = this.metadata.create() as Record<string, unknown>;
    for (let i = 0; i < this.read.length; i += 1) entity[this.read[i].propertyName] = hydrated(this.read[i], values[i]);
    return entity as T;
  }

  /** The quoted column of a property. */
  column(property: keyof T & string): string {
    return `"${this.columnOf(property).databaseName}"`;
  }

  /** A property's value as its column stores it (its transformer, then JSON for simple-json), to bind as a parameter. */
  stored<K extends keyof T & string>(property: K, value: T[K]): unknown {
    const column = this.columnOf(property);
    const transformer = transformerOf(column);
    const transformed: unknown = transformer ? transformer.to(value) : value;
    if (column.type === 'simple-json') return transformed === null || transformed === undefined ? transformed : JSON.stringify(transformed);
    return transformed;
  }

  private columnOf(property: string): ColumnMetadata {
    const column = this.byProperty.get(property);
    if (!column) throw new Error(`${this.metadata.name} has no column '${property}'`);
    return column;
  }
}

/** What TypeORM's drivers do to a column's value read from either store. */
function hydrated(column: ColumnMetadata, value: unknown): unknown {
  const parsed: unknown = column.type === 'simple-json' && typeof value === 'string' ? JSON.parse(value) : value;
  const transformer = transformerOf(column);
  return transformer ? (transformer.from(parsed) as unknown) : parsed;
}

/** The column's one transformer, if any (the constructor refuses columns with several). */
const transformerOf = (column: ColumnMetadata) => column.transformer as ValueTransformer | undefined;

const built = new WeakMap<EntityMetadata, Map<string, EntityRows<ObjectLiteral>>>();

/** The rows of `target` with these properties (all columns when none are named), built once per data source. */
export function entityRows<T extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<T>, properties?: ReadonlyArray<keyof T & string>): EntityRows<T> {
  const metadata = manager.connection.getMetadata(target);
  let ofEntity = built.get(metadata);
  if (!ofEntity) built.set(metadata, (ofEntity = new Map<string, EntityRows<ObjectLiteral>>()));
  const key = properties?.join(',') ?? '*';
  let rows = ofEntity.get(key);
  if (!rows) ofEntity.set(key, (rows = new EntityRows<T>(metadata, properties) as unknown as EntityRows<ObjectLiteral>));
  return rows as unknown as EntityRows<T>;
}
