// Response headers as the edge writes them: status lines, header names and fixed values handed to
// uWS as cached bytes, the CORS lines every answer carries, and the header block of a cacheable
// representation (RepresentationHeaders), made once and written in one call.
import { STATUS_CODES } from 'node:http';
import type uWS from 'uWebSockets.js';
import type { Encoding } from '../shared/cache/compression.ts';
import { requestIdValue, type RequestId } from './request-id.ts';
import type { Route } from './router.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
/** Request headers a browser may send cross-origin (the preflight's answer). */
export const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, X-Request-Id, Last-Event-ID';
const CORS_EXPOSE_HEADERS = 'ETag, X-Request-Id, Retry-After';
const CORS_FILE_EXPOSE_HEADERS = 'ETag, X-Request-Id, Content-Range, Accept-Ranges, Content-Length';

/**
 * Status lines, header names and fixed header values handed to uWS as bytes: uWS copies every
 * string argument into a freshly allocated UTF-8 buffer on each call, and reads bytes in place.
 * On the cached month that is 3% more answers per second. Names come from the code (a bounded
 * set); values only of the headers below, whose values come from the code too (content types,
 * Cache-Control of the routes), and at most FIXED_VALUES_MAX of them.
 */
export const asBytes = (text: string) => Buffer.from(text, 'latin1');
const statusLines = new Map<number, Buffer>();
export const statusLine = (status: number) => {
  let line = statusLines.get(status);
  if (line === undefined) statusLines.set(status, (line = asBytes(`${status} ${STATUS_CODES[status] ?? ''}`.trimEnd())));
  return line;
};
const headerNames = new Map<string, Buffer>();
const headerName = (name: string) => {
  let bytes = headerNames.get(name);
  if (bytes === undefined) headerNames.set(name, (bytes = asBytes(name)));
  return bytes;
};
const FIXED_VALUE_HEADERS = new Set(['Content-Type', 'Cache-Control', 'Vary', 'Content-Encoding', 'Accept-Ranges']);
const FIXED_VALUES_MAX = 256;
const fixedValues = new Map<string, Buffer>();
const headerValue = (name: string, value: string): string | Buffer => {
  if (!FIXED_VALUE_HEADERS.has(name)) return value;
  let bytes = fixedValues.get(value);
  if (bytes === undefined) {
    if (fixedValues.size >= FIXED_VALUES_MAX) return value;
    fixedValues.set(value, (bytes = Buffer.from(value)));
  }
  return bytes;
};
export const H_REQUEST_ID = asBytes('X-Request-Id');
export const NO_HEADERS: Record<string, string> = Object.freeze({});
export const H_ALLOW_ORIGIN = asBytes('Access-Control-Allow-Origin');

/**
 * Several header lines in one uWS call. uWS writes `name: value\r\n`, so a value of the form
 * `v1\r\nName2: v2\r\n…` writes whole lines after the first: one native call where each header
 * took one (with two typed-array arguments), a tenth of a microsecond each. Only for lines built
 * here from the code's names and values (never from a request), checked to hold no control
 * character; null when one does.
 */
function headerLines(first: string, lines: Array<readonly [string, string]>): Buffer | null {
  const text = [first, ...lines.map(([name, value]) => `${name}: ${value}`)].join('\r\n');
  return /^[\x20-\x7e]*(\r\n[\x20-\x7e]+)*$/.test(text) ? asBytes(text) : null;
}
/**
 * `*` for Access-Control-Allow-Origin, the exposed headers and `nosniff` (no browser reads a JSON
 * answer or a stored file as another type): the lines every answer carries (then `more`, for a
 * cacheable representation's). Made once, so nosniff costs no call per answer.
 */
const corsLines = (expose: string, more: Record<string, string> = {}) => headerLines('*', [['Access-Control-Expose-Headers', expose], ['X-Content-Type-Options', 'nosniff'], ...Object.entries(more)]);
export const CORS_LINES = corsLines(CORS_EXPOSE_HEADERS)!;
export const CORS_FILE_LINES = corsLines(CORS_FILE_EXPOSE_HEADERS)!;

/** Writes the headers every answer carries, then the given ones. */
export const writeHeaders = (res: uWS.HttpResponse, requestId: RequestId, cors: Buffer, headers: Record<string, string>) => {
  res.writeHeader(H_REQUEST_ID, requestIdValue(requestId));
  res.writeHeader(H_ALLOW_ORIGIN, cors);
  for (const name in headers) res.writeHeader(headerName(name), headerValue(name, headers[name]!));
};

/** The headers of a cacheable answer (200 or 304) after the request id and CORS. */
export function cacheableHeaders(status: number, cacheControl: string, contentType: string, vary: boolean, encoding: Encoding | null, etag: string): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': contentType, 'Cache-Control': cacheControl };
  if (vary) headers.Vary = 'Accept-Encoding';
  if (encoding !== null && status === 200) headers['Content-Encoding'] = encoding;
  headers.ETag = etag;
  return headers;
}

/**
 * The header lines of cacheable representations (CORS, Content-Type, Cache-Control, Vary,
 * Content-Encoding, ETag), made at a representation's first answer and written in one call after.
 * Per route (their Cache-Control differs, and equal bodies have equal ETags) and status (a 304
 * carries no Content-Encoding), by ETag; a map starts over past its bound.
 */
export class RepresentationHeaders {
  private readonly byRoute = new Map<Route, { ok: Map<string, Lines>; notModified: Map<string, Lines> }>();
  private static readonly PER_MAP = 1024;

  get(route: Route, status: 200 | 304, etag: string, contentType: string, vary: boolean, encoding: Encoding | null): Buffer | null {
    let maps = this.byRoute.get(route);
    if (maps === undefined) this.byRoute.set(route, (maps = { ok: new Map(), notModified: new Map() }));
    const known = status === 304 ? maps.notModified : maps.ok;
    const entry = known.get(etag);
    if (entry !== undefined && entry.contentType === contentType) return entry.lines;
    if (known.size >= RepresentationHeaders.PER_MAP) known.clear();
    const lines = corsLines(CORS_EXPOSE_HEADERS, cacheableHeaders(status, route.cacheControl!, contentType, vary, encoding, etag));
    known.set(etag, { contentType, lines });
    return lines;
  }
}
type Lines = { contentType: string; lines: Buffer | null };
