import { promises as dns, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from './address-policy';
import { OutboundError } from './outbound-error';

/** Every address a hostname resolves to. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

export const resolveWithDns: ResolveHost = (hostname) => dns.lookup(hostname, { all: true });

/**
 * A `lookup` for `net.connect` that refuses a host when any address it resolves to is
 * not public. The socket then connects to one of the addresses that were checked, so a
 * name that answers publicly at create time and privately later (DNS rebinding) is
 * still refused. IP literals never reach a lookup: the URL check handles them.
 */
export function publicOnlyLookup(options: { allowPrivate: boolean; resolve?: ResolveHost }): LookupFunction {
  const resolve = options.resolve ?? resolveWithDns;
  return (hostname, lookupOptions, callback) => {
    checkedAddresses(hostname, lookupOptions.family, options.allowPrivate, resolve).then(
      (addresses) => (lookupOptions.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)),
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

async function checkedAddresses(hostname: string, family: number | string | undefined, allowPrivate: boolean, resolve: ResolveHost): Promise<LookupAddress[]> {
  const addresses = await resolve(hostname);
  if (!allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) {
    throw new OutboundError('refused_address', `${hostname} resolves to a private, loopback or link-local address`);
  }
  const wanted = family === 'IPv4' ? 4 : family === 'IPv6' ? 6 : Number(family ?? 0);
  const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
  if (usable.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return usable;
}
