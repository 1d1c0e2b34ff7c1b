import { isIP } from 'node:net';
import { isPublicAddress } from './address-policy';

export type OutboundUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

export const PRIVATE_ADDRESS_MESSAGE = 'must not point to a private, loopback or link-local address';

/**
 * Names that resolve inside the network the service runs in (RFC 6761, 6762, 8375 and
 * the `.internal` of cloud metadata hosts), and single-label names, which the resolver
 * completes with the service's own search domains.
 */
const PRIVATE_NAME = /(^|\.)(localhost|local|localdomain|internal|home\.arpa)$|^[^.]+$/;

/**
 * The create-time check of a user-configured URL: http or https, no credentials in the
 * URL (they would end up in logs; headers are the place), and a host that is not
 * private by its spelling. Hosts are compared after WHATWG normalisation, which already
 * turns `0x7f.1`, `2130706433` or `127.1` into `127.0.0.1`. A name that only resolves to
 * a private address passes here; the connect-time check catches it.
 */
export function checkOutboundUrl(raw: string, options: { allowPrivate: boolean }): OutboundUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'must use http or https' };
  if (url.username !== '' || url.password !== '') return { ok: false, message: 'must not contain credentials (user:password@); send them in headers' };
  if (!options.allowPrivate && isPrivateHost(url.hostname)) return { ok: false, message: PRIVATE_ADDRESS_MESSAGE };
  return { ok: true, url };
}

function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/\.$/, '');
  if (host.startsWith('[') || isIP(host) !== 0) return !isPublicAddress(host);
  return PRIVATE_NAME.test(host);
}
