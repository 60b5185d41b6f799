// The key per-client limits count under: the resolved client address (Context.ip), with an IPv6
// address taken as its /64. One host or home network holds a whole /64 and can pick any address
// in it, so counting per address would give it 2^64 budgets. An IPv4-mapped IPv6 address is the
// IPv4 address.
import { isIPv4, isIPv6 } from 'node:net';

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** The eight 16-bit groups of an IPv6 address (without zone), as numbers. */
function groupsOf(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const part = (text: string) => {
    if (text === '') return [];
    const pieces = text.split(':');
    const last = pieces.at(-1)!;
    // A trailing dotted IPv4 part is two groups.
    if (isIPv4(last)) {
      const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
      return [...pieces.slice(0, -1).map((piece) => parseInt(piece, 16)), (a << 8) | b, (c << 8) | d];
    }
    return pieces.map((piece) => parseInt(piece, 16));
  };
  const first = part(head);
  if (tail === undefined) return first;
  const last = part(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

export function clientKey(address: string): string {
  const mapped = MAPPED_IPV4.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.replace(/%.*$/, '');
  if (!isIPv6(bare)) return address;
  return `${groupsOf(bare.toLowerCase()).slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/**
 * The network a client address belongs to, for counting how many separate voices asked for
 * something: an IPv4 address's /24, an IPv6 address's /48 (a site's allocation). A few addresses
 * rented in one subnet are one network.
 */
export function clientNetwork(address: string): string {
  const mapped = MAPPED_IPV4.exec(address);
  const bare = (mapped ? mapped[1]! : address).replace(/%.*$/, '');
  if (isIPv4(bare)) return `${bare.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(bare)) return `${groupsOf(bare.toLowerCase()).slice(0, 3).map((group) => group.toString(16)).join(':')}::/48`;
  return address;
}
