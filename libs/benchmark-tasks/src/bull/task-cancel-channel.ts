import { TASK_CANCEL_CHANNEL } from '@cinetrace/contracts';

/**
 * The pub/sub channel cancellations travel on. Channels are not keys, so a BullMQ
 * `prefix` does not scope them: a queue under its own prefix (a test, a second stack on
 * the same Redis) gets its own channel too, and the default prefix keeps the contract's.
 */
export function taskCancelChannel(prefix?: string): string {
  return prefix ? `${prefix}:${TASK_CANCEL_CHANNEL}` : TASK_CANCEL_CHANNEL;
}
