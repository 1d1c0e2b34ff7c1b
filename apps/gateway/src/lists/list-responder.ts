import type { ListEnvelope, OrgContext, Page, PageRequest } from '@cinetrace/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { GatewayEnv } from '../gateway.env';
import { canonicalJson } from '../http/canonical-json';
import { CursorCodec } from './cursor-codec';
import { FilterSpec, FiltersOf, parseListQuery } from './list-query';

/** Fetches one page from the owning service, given the route's parsed filters and the keyset position. */
export type FetchPage<S extends FilterSpec, TItem, TKey> = (filters: FiltersOf<S>, page: PageRequest<TKey>) => Promise<Page<TItem, TKey>>;

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
    ctx: OrgContext & { projectId?: string },
    query: Record<string, unknown>,
    spec: S,
    fetch: FetchPage<S, TItem, TKey>,
  ): Promise<ListEnvelope<TItem>> {
    const { limit, cursor, filters } = parseListQuery(query, spec, { maxJsonDepth: this.env.MAX_JSON_DEPTH });
    const scope = [route, ctx.orgId, ctx.projectId ?? '', canonicalJson(filters)].join('|');
    // The cursor is signed for this exact list, so its key is one this route's service gave as nextKey.
    const after = cursor === undefined ? undefined : (this.cursors.decode(scope, cursor) as TKey);
    // parseListQuery lets through only the spec's filters, each checked against its type.
    const page = await fetch(filters as FiltersOf<S>, after === undefined ? { limit } : { limit, after });
    return { data: page.items, nextCursor: page.nextKey === null ? null : this.cursors.encode(scope, page.nextKey) };
  }
}
