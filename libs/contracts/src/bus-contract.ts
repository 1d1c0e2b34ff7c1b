import type { ReplyTypeOf, RequestTypeOf } from './bus-patterns/bus-pattern';
import type { Pattern, PatternEntry } from './patterns';

export type { NoRequest, PingReply } from './bus-patterns/bus-pattern';
export type { RevokedReply } from './bus-patterns/project-service.patterns';
export type { ReleaseRemovedReply } from './bus-patterns/prompt-service.patterns';

/**
 * Each request-reply pattern's request and reply, as its declaration (BUS_PATTERNS) carries
 * them: what `BusClient.request` takes and gives, and what the handler of the pattern
 * (`@Handles`) must accept and answer.
 */
export type BusContract = { [P in Pattern]: { request: RequestTypeOf<PatternEntry<P>>; reply: ReplyTypeOf<PatternEntry<P>> } };

export type RequestOf<P extends Pattern> = BusContract[P]['request'];
export type ReplyOf<P extends Pattern> = BusContract[P]['reply'];
