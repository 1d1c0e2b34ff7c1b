import { JsonText } from '@cinetrace/bus';
import type { ListEnvelope, OrgContext, Page, PageRequest, TextPage } from '@cinetrace/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { GatewayEnv } from '../gateway.env';
import { canonicalJson } from '../http/canonical-json';
import { CursorCodec } from './cursor-codec';
import { FilterSpec, FiltersOf, parseListQuery } from './list-query';

/** Fetches one page from the owning service, given the route's parsed filters and the keyset position. */
export type FetchPage<S extends FilterSpec, TItem, TKey> = (filters: FiltersOf<S>, page: PageRequest<TKey>) => Promise<Page<TItem, TKey>>;

/** The same, for a service that writes its page's items as JSON text (TextPage). */
export type FetchTextPage<S extends FilterSpec, TKey> = (filters: FiltersOf<S>, page: PageRequest<TKey>) => Promise<TextPage<TKey>>;

type ListCaller = OrgContext & { projectId?: string };

/**
 * Every list route in one place: parse and allow-list the query, verify the cursor
 * against this exact list (route, caller's scope, filters), fetch the page from the
 * owning service, and hand back the public envelope with a signed next cursor.
 */
@Injectable()
export class ListResponder {
  constructor(
    @Inject(CursorCodec) private readonly cursors: CursorCodec,
    @Inject(GatewayEnv) private readonly env: GatewayEnv,
  ) {}

  async respond<S extends FilterSpec, TItem, TKey>(
    route: string,
    ctx: ListCaller,
    query: Record<string, unknown>,
    spec: S,
    fetch: FetchPage<S, TItem, TKey>,
  ): Promise<ListEnvelope<TItem>> {
    const { page, cursorOf } = await this.fetchPage(route, ctx, query, spec, fetch);
    return { data: page.items, nextCursor: cursorOf(page.nextKey) };
  }

  /** The envelope as JSON text around the items' text: the largest lists are not parsed and serialized again here. */
  async respondText<S extends FilterSpec, TKey>(route: string, ctx: ListCaller, query: Record<string, unknown>, spec: S, fetch: FetchTextPage<S, TKey>): Promise<JsonText> {
    const { page, cursorOf } = await this.fetchPage(route, ctx, query, spec, fetch);
    return new JsonText(`{"data":${page.itemsJson},"nextCursor":${JSON.stringify(cursorOf(page.nextKey))}}`);
  }

  private async fetchPage<S extends FilterSpec, TKey, TPage>(
    route: string,
    ctx: ListCaller,
    query: Record<string, unknown>,
    spec: S,
    fetch: (filters: FiltersOf<S>, page: PageRequest<TKey>) => Promise<TPage>,
  ) {
    const { limit, cursor, filters } = parseListQuery(query, spec, { maxJsonDepth: this.env.MAX_JSON_DEPTH });
    const scope = [route, ctx.orgId, ctx.projectId ?? '', canonicalJson(filters)].join('|');
    // The cursor is signed for this exact list, so its key is one this route's service gave as nextKey.
    const after = cursor === undefined ? undefined : (this.cursors.decode(scope, cursor) as TKey);
    // parseListQuery lets through only the spec's filters, each checked against its type.
    const page = await fetch(filters as FiltersOf<S>, after === undefined ? { limit } : { limit, after });
    const cursorOf = (nextKey: TKey | null) => (nextKey === null ? null : this.cursors.encode(scope, nextKey));
    return { page, cursorOf };
  }
}
