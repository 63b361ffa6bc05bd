// Which resolved addresses an outbound request may reach (DESIGN.md §6: no private, link-local or
// metadata targets). Ranges are matched by node:net BlockList; IPv6 ranges that embed an IPv4 address
// (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are decided by the embedded address, so every textual
// form (compressed, hex or dotted IPv6) lands on the same check.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

type Bytes = number[];

function blockList(family: 'ipv4' | 'ipv6', ranges: string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [network, prefix] = range.split('/');
    list.addSubnet(network, Number(prefix), family);
  }
  return list;
}

const BLOCKED_V4 = blockList('ipv4', [
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
]);

const BLOCKED_V6 = blockList('ipv6', [
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // old site-local
  'ff00::/8', // multicast
  '100::/64', // discard
  '2001:db8::/32', // documentation
  '2001::/32', // Teredo: tunnels to an arbitrary IPv4 address
  '64:ff9b:1::/48', // local-use NAT64
]);

/** IPv6 ranges that embed an IPv4 address (at byte `offset`): the embedded address decides. */
const EMBEDDING_V6: { range: BlockList; offset: number }[] = [
  { range: blockList('ipv6', ['::/96']), offset: 12 }, // IPv4-compatible, and :: / ::1 themselves
  { range: blockList('ipv6', ['::ffff:0:0/96']), offset: 12 }, // IPv4-mapped
  { range: blockList('ipv6', ['64:ff9b::/96']), offset: 12 }, // NAT64
  { range: blockList('ipv6', ['2002::/16']), offset: 2 }, // 6to4
];

export function parseIPv4(text: string): Bytes | null {
  if (!isIPv4(text)) return null;
  return text.split('.').map(Number);
}

/** An IPv6 address without URL brackets or zone id ("[fe80::1%eth0]" → "fe80::1"). */
function bareIPv6(text: string): string {
  return text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
}

export function parseIPv6(text: string): Bytes | null {
  const address = bareIPv6(text);
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

function isPublicV4(address: string): boolean {
  return !BLOCKED_V4.check(address, 'ipv4');
}

/** True when the address is a public unicast address; false for anything private, local, special or unparsable. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return isPublicV4(address);
  const v6 = parseIPv6(address);
  if (!v6) return false;
  const bare = bareIPv6(address);
  for (const { range, offset } of EMBEDDING_V6) {
    if (range.check(bare, 'ipv6')) return isPublicV4(v6.slice(offset, offset + 4).join('.'));
  }
  return !BLOCKED_V6.check(bare, 'ipv6');
}
