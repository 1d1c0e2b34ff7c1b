import type IORedis from 'ioredis';

/** The connections already set up, so that setting one up twice does not wrap it twice. */
const batched = new WeakSet<IORedis>();

/**
 * Makes `redis` send the commands it is given within one turn of the event loop in one
 * socket write, where ioredis writes each command on its own. The first command of a turn
 * corks the connection's socket and the turn's end (setImmediate) uncorks it: what was
 * written meanwhile leaves in one `writev`. Commands keep their order (they are written to
 * the same stream, in the order given), so unlike ioredis' auto-pipelining this is safe for
 * BullMQ's scripts; only the system calls merge.
 *
 * Why: a worker ending many tasks in one turn (a produce answer settles a batch of them)
 * issues four commands for each, and each loopback write costs a system call in the writer
 * and a read in Redis, which a loaded machine feels.
 * Not for a connection that blocks (BRPOP and the like): nothing is gained there.
 */
export function oneWritePerTurn(redis: IORedis): IORedis {
  if (batched.has(redis)) return redis;
  batched.add(redis);
  const send = redis.sendCommand.bind(redis);
  let corked: IORedis['stream'] | undefined;
  redis.sendCommand = (command, stream) => {
    const socket = redis.stream;
    // A pipeline (`stream` given) gathers its commands itself and writes them at once.
    if (!stream && socket && socket !== corked && socket.writable) {
      corked = socket;
      socket.cork();
      setImmediate(() => {
        corked = undefined;
        socket.uncork();
      });
    }
    return send(command, stream);
  };
  return redis;
}
