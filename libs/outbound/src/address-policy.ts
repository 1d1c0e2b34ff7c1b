import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** 2000::/3, the only IPv6 space handed out for the public internet (RFC 4291). */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** The well-known NAT64 prefix (RFC 6052): the IPv4 address sits in the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * Whether the service may call this IP address: only ordinary public unicast. Loopback,
 * private, link-local, unique-local, unspecified, carrier-grade NAT, broadcast, multicast
 * and reserved ranges are refused, and so is an IPv6 address that embeds a non-public
 * IPv4 one (mapped, NAT64, SIIT, 6to4, Teredo), since traffic to it ends up there.
 * Anything that is not an IP address in canonical notation (`127.1`, a zone id) is
 * refused too: callers normalise first, so an odd spelling here means a bug, not a host.
 */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const version = isIP(bare);
  if (version === 0 || bare.includes('%')) return false;
  const address = ipaddr.process(version === 6 ? canonicalV6(bare) : bare);
  return address.kind() === 'ipv4' ? isPublicV4(address as ipaddr.IPv4) : isPublicV6(address as ipaddr.IPv6);
}

function isPublicV4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

function isPublicV6(address: ipaddr.IPv6): boolean {
  const p = address.parts;
  switch (address.range()) {
    case 'unicast':
      return address.match(GLOBAL_UNICAST_V6);
    case 'rfc6145':
      return isPublicV4(v4(p[6], p[7]));
    case 'rfc6052':
      // 64:ff9b:1::/48 is for local NAT64 deployments, where the IPv4 part has no fixed place.
      return address.match(NAT64_WELL_KNOWN) && isPublicV4(v4(p[6], p[7]));
    case '6to4':
      return isPublicV4(v4(p[1], p[2]));
    case 'teredo':
      // Server address in clear, client address inverted (RFC 4380).
      return isPublicV4(v4(p[2], p[3])) && isPublicV4(v4(~p[6] & 0xffff, ~p[7] & 0xffff));
    default:
      return false;
  }
}

function v4(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The WHATWG form of an IPv6 address with a dotted tail: ipaddr.js reads `::1.2.3.4`
 * (IPv4-compatible, deprecated) as the mapped `::ffff:1.2.3.4`, the URL parser does not.
 */
function canonicalV6(address: string): string {
  return address.includes('.') ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address;
}
