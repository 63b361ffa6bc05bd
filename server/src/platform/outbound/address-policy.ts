// Which resolved addresses an outbound request may reach (DESIGN.md §6: no private, link-local or
// metadata targets). Addresses are compared as bytes, so every textual form (IPv4-mapped IPv6,
// NAT64, 6to4, compressed or hex IPv6) lands on the same check.
import { isIPv4, isIPv6 } from 'node:net';

type Bytes = number[];

interface Cidr {
  bytes: Bytes;
  bits: number;
}

function cidr(text: string): Cidr {
  const [address, bits] = text.split('/');
  const bytes = isIPv4(address) ? parseIPv4(address) : parseIPv6(address);
  if (!bytes) throw new Error(`bad CIDR ${text}`);
  return { bytes, bits: Number(bits) };
}

function inCidr(bytes: Bytes, range: Cidr): boolean {
  if (bytes.length !== range.bytes.length) return false;
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (range.bytes[i] & mask)) return false;
  }
  return true;
}

const BLOCKED_V4 = [
  '0.0.0.0/8', // "this network", incl. 0.0.0.0 which Linux routes to localhost
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, incl. cloud metadata 169.254.169.254
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, incl. broadcast
].map(cidr);

const BLOCKED_V6 = [
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // old site-local
  'ff00::/8', // multicast
  '100::/64', // discard
  '2001:db8::/32', // documentation
  '2001::/32', // Teredo: tunnels to an arbitrary IPv4 address
  '64:ff9b:1::/48', // local-use NAT64
].map(cidr);

/** IPv6 ranges that embed an IPv4 address: the embedded address decides. */
const EMBEDDING_V6: { range: Cidr; offset: number }[] = [
  { range: cidr('::/96'), offset: 12 }, // IPv4-compatible, and :: / ::1 themselves
  { range: cidr('::ffff:0:0/96'), offset: 12 }, // IPv4-mapped
  { range: cidr('64:ff9b::/96'), offset: 12 }, // NAT64
  { range: cidr('2002::/16'), offset: 2 }, // 6to4
];

export function parseIPv4(text: string): Bytes | null {
  if (!isIPv4(text)) return null;
  return text.split('.').map(Number);
}

export function parseIPv6(text: string): Bytes | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(address)) return null;
  let head = address;
  let tail: Bytes = [];
  const lastColon = address.lastIndexOf(':');
  const dotted = address.slice(lastColon + 1);
  if (dotted.includes('.')) {
    const v4 = parseIPv4(dotted);
    if (!v4) return null;
    tail = v4;
    head = address.slice(0, lastColon + 1) + '0:0';
  }
  const [left, right] = head.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').filter((g) => g !== '') : []);
  const leftGroups = groups(left);
  const rightGroups = head.includes('::') ? groups(right) : [];
  const missing = 8 - leftGroups.length - rightGroups.length;
  const all = [...leftGroups, ...Array<string>(Math.max(missing, 0)).fill('0'), ...rightGroups];
  if (all.length !== 8) return null;
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [(n >> 8) & 0xff, n & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function isPublicV4(bytes: Bytes): boolean {
  return !BLOCKED_V4.some((range) => inCidr(bytes, range));
}

/** True when the address is a public unicast address; false for anything private, local, special or unparsable. */
export function isPublicAddress(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4) return isPublicV4(v4);
  const v6 = parseIPv6(address);
  if (!v6) return false;
  for (const { range, offset } of EMBEDDING_V6) {
    if (inCidr(v6, range)) return isPublicV4(v6.slice(offset, offset + 4));
  }
  return !BLOCKED_V6.some((range) => inCidr(v6, range));
}
