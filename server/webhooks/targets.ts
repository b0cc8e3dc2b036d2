import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

/** Addresses that are not on the public internet (RFC 6890 special-purpose and friends). */
const NON_PUBLIC = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) NON_PUBLIC.addSubnet(prefix, bits, 'ipv6');

/** True for loopback, private, link-local, CGNAT, documentation, multicast and other non-public addresses. */
export function isNonPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return NON_PUBLIC.check(mapped[1], 'ipv4');
    return NON_PUBLIC.check(address, 'ipv6');
  }
  return true; // not an address at all: refuse
}

export class BlockedTargetError extends Error {}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)$/i;

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** The part of the check that needs no DNS: IP literals and well-known local names. */
export function checkTargetStatically(url: URL, allowLocal: boolean): void {
  if (allowLocal) return;
  const host = bareHost(url);
  if (net.isIP(host) ? isNonPublicAddress(host) : LOCAL_NAMES.test(host)) {
    throw new BlockedTargetError(`${host} is a local or private address, and this entity does not allow local webhook targets`);
  }
}

/**
 * A DNS lookup for http.request that refuses non-public addresses, so the address that is
 * checked is the one connected to (no DNS-rebinding window).
 */
export function guardedLookup(allowLocal: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const blocked = !allowLocal && list.find((a) => isNonPublicAddress(a.address));
      if (blocked) return callback(new BlockedTargetError(`${hostname} resolves to ${blocked.address}, a local or private address; this entity does not allow local webhook targets`), '', 0);
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
