import type { ListEnvelope, OrgContext, Page, PageRequest } from '@cinetrace/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { GatewayEnv } from '../gateway.env';
import { canonicalJson } from '../http/canonical-json';
import { CursorCodec } from './cursor-codec';
import { FilterSpec, parseListQuery } from './list-query';

export type FetchPage<TItem> = (filters: Record<string, unknown>, page: PageRequest) => Promise<Page<TItem>>;

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

  async respond<TItem>(
    route: string,
    ctx: OrgContext & { projectId?: string },
    query: Record<string, unknown>,
    spec: FilterSpec,
    fetch: FetchPage<TItem>,
  ): Promise<ListEnvelope<TItem>> {
    const { limit, cursor, filters } = parseListQuery(query, spec, { maxJsonDepth: this.env.MAX_JSON_DEPTH });
    const scope = [route, ctx.orgId, ctx.projectId ?? '', canonicalJson(filters)].join('|');
    const after = cursor === undefined ? undefined : this.cursors.decode(scope, cursor);
    const page = await fetch(filters, after === undefined ? { limit } : { limit, after });
    return { data: page.items, nextCursor: page.nextKey === null ? null : this.cursors.encode(scope, page.nextKey) };
  }
}
