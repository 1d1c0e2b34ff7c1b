import type { Pattern, ReplyOf } from '@cinetrace/contracts';
import { MessagePattern } from '@nestjs/microservices';
import type { JsonText } from './json-text';

/** What a handler of a pattern may answer: its reply, or that reply's JSON text (see JsonText), now or later. */
export type BusAnswer<R> = R | JsonText | Promise<R | JsonText>;

/**
 * Marks the handler of `pattern` (Nest's @MessagePattern), and holds it to the pattern's
 * entry in BusContract: a handler answering something else does not compile.
 */
export function Handles<P extends Pattern>(pattern: P) {
  return <T extends (...args: never[]) => BusAnswer<ReplyOf<P>>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<T>): void => {
    MessagePattern(pattern)(target, key, descriptor);
  };
}
