/**
 * Removes and returns the oldest items of `queue` that together hold at most `max`
 * (by `sizeOf`), and always the first one, however large: how every batching queue of the
 * bus takes its next batch.
 */
export function takeWithin<T>(queue: T[], max: number, sizeOf: (item: T) => number): T[] {
  let total = 0;
  let n = 0;
  while (n < queue.length && (n === 0 || total + sizeOf(queue[n]) <= max)) {
    total += sizeOf(queue[n]);
    n += 1;
  }
  return queue.splice(0, n);
}
