// The client's address (docs/security.md, "Client addresses come from trusted hops only"), read as
// an address, never as text: `1.2.3.4:5678`, `[::1]:80`, `::ffff:1.2.3.4` and `1.2.3.4` are one
// client. Otherwise each spelling of an address would be a new client to every per-address limit.
import { isIP, isIPv4 } from 'node:net';
import { badRequest } from '../shared/errors.ts';
import type { HeaderName } from './context.ts';

/** Longest header entry looked at: an IPv6 text with a zone and a port fits; anything longer is not an address. */
const MAX_ENTRY_LENGTH = 64;

/** `::ffff:a.b.c.d` as the URL parser writes it: `::ffff:hhhh:hhhh`. */
const MAPPED_IPV4 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** An IPv6 address in its one canonical form (RFC 5952, as the WHATWG URL parser writes it), without a zone. */
function canonicalIpv6(address: string): string | null {
  let host: string;
  try {
    host = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const mapped = MAPPED_IPV4.exec(host);
  if (mapped === null) return host;
  const high = parseInt(mapped[1]!, 16);
  const low = parseInt(mapped[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * The address in one entry of X-Forwarded-For or X-Real-IP, without port or brackets, an IPv6
 * address canonical and an IPv4-mapped one as IPv4; null when the entry is not an address.
 * Accepted: `1.2.3.4`, `1.2.3.4:80`, `2001:db8::1`, `[2001:db8::1]`, `[2001:db8::1]:80`.
 */
export function parseAddress(entry: string): string | null {
  if (entry.length > MAX_ENTRY_LENGTH) return null;
  let host = entry;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return null;
    const rest = host.slice(close + 1);
    if (rest !== '' && !isPort(rest)) return null;
    host = host.slice(1, close);
    return isIP(host) === 6 ? canonicalIpv6(host) : null;
  }
  const version = isIP(host);
  if (version === 4) return host;
  if (version === 6) return canonicalIpv6(host);
  // `a.b.c.d:port`: one colon, so never an IPv6 address.
  const colon = host.indexOf(':');
  if (colon > 0 && colon === host.lastIndexOf(':') && isPort(host.slice(colon)) && isIPv4(host.slice(0, colon))) return host.slice(0, colon);
  return null;
}

const decoder = new TextDecoder();

const isPort = (text: string) => /^:\d{1,5}$/.test(text) && Number(text.slice(1)) <= 65535;

const HEADER_TITLES: Partial<Record<HeaderName, string>> = { 'x-forwarded-for': 'X-Forwarded-For', 'x-real-ip': 'X-Real-IP' };

/**
 * The client's address. `trustProxy` = the number of reverse proxies in front that append to
 * X-Forwarded-For: 0 takes the connection's address and ignores the headers (a client writes them);
 * N takes the N-th entry from the right (the one the outermost trusted proxy appended; the leftmost
 * when there are fewer), else X-Real-IP, else the connection's address. This replaces
 * auth-service.md 4.3's "first entry", which a client chooses itself. Decoded only when a route
 * asks; a chosen entry that is not an address is a 400 naming its header (the proxy in front was
 * misconfigured, or the header did not come from it), never a client of its own.
 */
export function clientIp(headers: Partial<Record<HeaderName, string>>, remote: ArrayBuffer, trustProxy: number): () => string {
  let resolved: string | null = null;
  return () => {
    if (resolved !== null) return resolved;
    if (trustProxy > 0) {
      const forwarded = headers['x-forwarded-for']?.split(',').map((entry) => entry.trim()).filter(Boolean);
      const name: HeaderName = forwarded?.length ? 'x-forwarded-for' : 'x-real-ip';
      const chosen = forwarded?.length ? forwarded[Math.max(0, forwarded.length - trustProxy)] : headers['x-real-ip']?.trim();
      if (chosen) {
        const address = parseAddress(chosen);
        if (address === null) throw badRequest(`${HEADER_TITLES[name]} 헤더의 클라이언트 주소가 IP 주소가 아닙니다.`, 'invalid_client_address');
        return (resolved = address);
      }
    }
    const text = decoder.decode(remote);
    return (resolved = parseAddress(text) ?? text);
  };
}
