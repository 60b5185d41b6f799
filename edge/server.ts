// The uWebSockets.js edge: one catch-all handler that captures the request, routes it, reads the
// body with a limit, runs the handler and writes the answer corked. One error path makes {error, code}.
import { STATUS_CODES } from 'node:http';
import uWS from 'uWebSockets.js';
import { databaseUnavailable } from '../shared/db/database.ts';
import { DatabaseUnavailableError, diskFull, HttpError, insufficientStorage, serviceUnavailable } from '../shared/errors.ts';
import type { OutageLog } from './outage-log.ts';
import type { Logger } from '../shared/runtime/logger.ts';
import { tracing } from '../shared/runtime/tracing.ts';
import { COMPRESS_MIN_BYTES, preferredEncoding, VariantCache, type Encoding, type Variants, strongEtag } from '../shared/cache/compression.ts';
import { BodyReader, BODY_HEADERS, CACHEABLE_HEADERS, CAPTURED_HEADERS, Context, FILE_HEADERS, type HeaderName, type Reply } from './context.ts';
import { pipeToResponse, planFile, pumpToResponse } from './file-response.ts';
import { conflictingFraming, FRAMING_ERROR, refuseFraming } from './framing.ts';
import { allLines } from './header-lines.ts';
import { clientIp } from './client-address.ts';
import { createAccessLog, type AccessLogOptions } from './access-log.ts';
import { endRequestSpan, inRequestSpan, startRequestSpan } from './request-tracing.ts';
import { requestIdOf, requestIdValue, type RequestId } from './request-id.ts';
import { checkQueryString, type Method, type Route, type Router } from './router.ts';
import type { OpenedFile } from '../shared/storage/storage.ts';

export const DEFAULT_BODY_LIMIT = 256 * 1024;

export interface EdgeHooks {
  /** Runs before every `auth: 'admin'` route; throws 401 when the request carries no valid admin token. */
  authenticateAdmin(ctx: Context): void;
  /** Called once per answered request (metrics). */
  observe?(route: string, method: string, status: number, seconds: number): void;
  /** Told of each request refused because the database cannot be reached (one log line per outage). */
  outage?: OutageLog;
}

export interface Edge {
  port: number;
  /** Requests received and not yet answered or aborted. */
  inFlight(): number;
  /** Stop accepting connections; connections already open keep working. */
  stopListening(): void;
  /** Close every open connection (keep-alive ones included). */
  closeConnections(): void;
}

/** uWS exports this listen option, but its typings declare it only as an enum and only for listen(port, options, cb). */
const LIBUS_LISTEN_EXCLUSIVE_PORT = (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;
type ListenWithOptions = (host: string, port: number, options: number, cb: (socket: uWS.us_listen_socket | false) => void) => uWS.TemplatedApp;

const METHODS_WITH_BODY = new Set(['post', 'put', 'patch', 'delete']);
const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, If-None-Match, If-Modified-Since, X-Request-Id, Last-Event-ID';
const CORS_EXPOSE_HEADERS = 'ETag, X-Request-Id, Retry-After';
const CORS_FILE_EXPOSE_HEADERS = 'ETag, X-Request-Id, Content-Range, Accept-Ranges, Content-Length';
const JSON_TYPE = 'application/json; charset=utf-8';
const WWW_AUTHENTICATE = Object.freeze({ 'WWW-Authenticate': 'Bearer' });
const FRAMING_BODY = JSON.stringify({ error: FRAMING_ERROR });
const FRAMING_HEADERS = [['Content-Type', JSON_TYPE], ['X-Content-Type-Options', 'nosniff'], ['Access-Control-Allow-Origin', '*']] as const;

/**
 * Status lines, header names and fixed header values handed to uWS as bytes: uWS copies every
 * string argument into a freshly allocated UTF-8 buffer on each call, and reads bytes in place.
 * On the cached month that is 3% more answers per second (issue 13). Names come from the code (a
 * bounded set); values only of the headers below, whose values come from the code too (content
 * types, Cache-Control of the routes), and at most FIXED_VALUES_MAX of them.
 */
const asBytes = (text: string) => Buffer.from(text, 'latin1');
const statusLines = new Map<number, Buffer>();
const statusLine = (status: number) => {
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
const H_REQUEST_ID = asBytes('X-Request-Id');
const NO_HEADERS: Record<string, string> = Object.freeze({});
const H_ALLOW_ORIGIN = asBytes('Access-Control-Allow-Origin');

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
const CORS_LINES = corsLines(CORS_EXPOSE_HEADERS)!;
const CORS_FILE_LINES = corsLines(CORS_FILE_EXPOSE_HEADERS)!;

/** Writes the headers every answer carries, then the given ones. */
const writeHeaders = (res: uWS.HttpResponse, requestId: RequestId, cors: Buffer, headers: Record<string, string>) => {
  res.writeHeader(H_REQUEST_ID, requestIdValue(requestId));
  res.writeHeader(H_ALLOW_ORIGIN, cors);
  for (const name in headers) res.writeHeader(headerName(name), headerValue(name, headers[name]!));
};

/** The headers of a cacheable answer (200 or 304) after the request id and CORS. */
function cacheableHeaders(status: number, cacheControl: string, contentType: string, vary: boolean, encoding: Encoding | null, etag: string): Record<string, string> {
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
class RepresentationHeaders {
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

export { strongEtag };

/** The client's address, or undefined when its forwarded header is not an address (that answer is a 400). */
function addressOrNone(ctx: Context): string | undefined {
  try {
    return ctx.ip;
  } catch {
    return undefined;
  }
}

/** If-None-Match against an ETag with the weak comparison (RFC 9110 13.1.2): `W/"x"` matches `"x"`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true; // the common revalidation: the tag sent back as received
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const entry of ifNoneMatch.split(',')) {
    const tag = entry.trim();
    if (tag === '*' || tag === opaque || (tag.startsWith('W/') && tag.slice(2) === opaque)) return true;
  }
  return false;
}

/**
 * An answer decided before the whole body arrived (401 on an upload, 413, 404). Within the route's
 * limit the rest is read and dropped by uWS after the answer and the connection stays open
 * ('drain'); a body declared larger than the limit, or of unknown length, is not read further
 * ('linger'). Null when the body was read to its end or there is none.
 */
export function earlyAnswer(reader: BodyReader | null, contentLength: string | undefined): 'drain' | 'linger' | null {
  if (!reader || reader.complete) return null;
  reader.discard();
  const declared = contentLength === undefined ? NaN : Number(contentLength);
  return Number.isSafeInteger(declared) && declared <= reader.limit ? 'drain' : 'linger';
}

export interface EdgeOptions extends AccessLogOptions {
  /** Reverse proxies in front that append to X-Forwarded-For (clientIp). */
  trustProxy?: number;
  /** Bytes of large bodies held at once (UploadBudget); default unbounded. */
  uploadBudgetBytes?: number;
  /** Handlers that need uWS itself (the live calendar's WebSocket and event stream), mounted before the API's catch-all. */
  mount?: (app: uWS.TemplatedApp) => void;
}

/** Seconds a client turned away by the upload budget is told to wait (Retry-After). */
const UPLOAD_RETRY_AFTER_S = 2;

/**
 * Bytes of upload bodies held at once. A multipart upload is read whole before its images go to
 * the pool, and stays in memory until its handler is done: four maximal event uploads at once (five
 * 20 MB posters each) took the edge process to 856 MB, past its 768 Mi limit in k8s/. Each request
 * allowed a body larger than the default holds its declared length (its limit when chunked) from
 * before its handler runs until the handler settles. One upload is always admitted, however large.
 */
class UploadBudget {
  private held = 0;

  constructor(readonly bytes: number) {}

  take(bytes: number): boolean {
    if (this.held > 0 && this.held + bytes > this.bytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}

export function startEdge(router: Router, hooks: EdgeHooks, logger: Logger, port: number, options: EdgeOptions = {}): Promise<Edge> {
  const trustProxy = options.trustProxy ?? 0;
  const app = uWS.App();
  let inFlight = 0;
  const uploads = new UploadBudget(options.uploadBudgetBytes ?? Number.POSITIVE_INFINITY);
  const named = (names: readonly HeaderName[]) => names.map((name) => [name, asBytes(name)] as const);
  // Forwarding headers mean nothing unless a trusted proxy wrote them: not even read then.
  const captured = named(trustProxy > 0 ? CAPTURED_HEADERS : CAPTURED_HEADERS.filter((name) => name !== 'x-forwarded-for' && name !== 'x-real-ip'));
  // A cacheable answer is the same for every client: its route reads no token and no address, and
  // a Range only when it serves files. Each header read is a call into uWS.
  const cacheableCaptured = named(CACHEABLE_HEADERS);
  const fileCaptured = named([...CACHEABLE_HEADERS, ...FILE_HEADERS]);
  const bodyHeaders = named(BODY_HEADERS);
  const capture = (req: uWS.HttpRequest, names: ReadonlyArray<readonly [HeaderName, Buffer]>, headers: Partial<Record<HeaderName, string>>) => {
    for (const [name, key] of names) {
      // X-Forwarded-For: a proxy may add its own line after the client's (HAProxy's `option forwardfor`).
      const value = name === 'x-forwarded-for' ? allLines(req, name) : req.getHeader(key);
      if (value !== '') headers[name] = value;
    }
    return headers;
  };
  /** True inside uWS's request callback, where writes are corked already. */
  let synchronous = false;
  const addressCaptured = named(trustProxy > 0 ? ['x-forwarded-for', 'x-real-ip'] : []);
  /**
   * The address getter of a cacheable route. Its answer is the same for every client, but the cost
   * of an uncached one is charged to the client (the query budget): only then is the address read,
   * inside uWS's request callback, where the request can still be read. Asked later (after an
   * await) it is a programming error.
   */
  const lateClientIp = (req: uWS.HttpRequest, res: uWS.HttpResponse) => () => {
    if (!synchronous) throw new Error('a cacheable route reads the client address before its first await');
    return clientIp(capture(req, addressCaptured, {}), res.getRemoteAddressAsText(), trustProxy)();
  };

  // The access log (access-log.ts): route template, never the path or query.
  const { logged, accessLog } = createAccessLog(logger, options);
  /**
   * The address for the access log, read before the answer is written (uWS discards the response
   * after it): a cacheable route's only inside uWS's callback (lateClientIp), else none.
   */
  const clientOf = (ctx: Context, route: Route | null) => (route?.cacheControl === undefined || synchronous ? addressOrNone(ctx) : undefined);

  /** `lines`, when given, are all the headers but the request id, made by RepresentationHeaders. */
  const write = (res: uWS.HttpResponse, ctx: Context, route: Route | null, startedAt: number, status: number, headers: Record<string, string>, body: string | Uint8Array | null, lines: Buffer | null = null) => {
    if (ctx.aborted) return;
    ctx.aborted = true; // answered: later writes are ignored
    inFlight--;
    const client = logged(route, status) ? clientOf(ctx, route) : null;
    const early = earlyAnswer(ctx.bodyReader, ctx.header('content-length'));
    // uWS corks the synchronous scope of a request handler itself; later answers cork here.
    if (synchronous) writeResponse(res, ctx, status, headers, body, early, lines);
    else res.cork(() => writeResponse(res, ctx, status, headers, body, early, lines));
    hooks.observe?.(route?.path ?? 'unmatched', ctx.method, status, (performance.now() - startedAt) / 1000);
    if (client !== null) accessLog(ctx, route, status, body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, startedAt, client);
    if (tracing) endRequestSpan(ctx, status);
  };

  const writeResponse = (res: uWS.HttpResponse, ctx: Context, status: number, headers: Record<string, string>, body: string | Uint8Array | null, early: 'drain' | 'linger' | null, lines: Buffer | null) => {
    res.writeStatus(statusLine(status));
    if (lines === null) writeHeaders(res, ctx.id, CORS_LINES, headers);
    else {
      res.writeHeader(H_REQUEST_ID, requestIdValue(ctx.id));
      res.writeHeader(H_ALLOW_ORIGIN, lines);
    }
    if (early === 'linger') {
      // Past the limit: say the connection ends, stop reading and let the idle timeout close it.
      // Closing now would reset a socket with unread data, and a client still sending (undici,
      // browsers) would lose this answer with it.
      res.writeHeader('Connection', 'close');
      res.pause();
    }
    if (body === null) res.endWithoutBody(0);
    else if (ctx.method === 'head') res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    else res.end(body);
  };

  const writeError = (res: uWS.HttpResponse, ctx: Context, route: Route | null, startedAt: number, error: unknown) => {
    // The client went away (an aborted upload): nobody to answer, and not a fault of the service.
    if (ctx.aborted) {
      logger.debug({ requestId: ctx.requestId, route: route?.path, reason: error instanceof Error ? error.message : String(error) }, 'request aborted by the client');
      return;
    }
    if (databaseUnavailable(error)) {
      if (!hooks.outage) logger.warn({ err: error, requestId: ctx.requestId, route: route?.path }, 'database unavailable');
      hooks.outage?.refused(route?.path, error);
      error = serviceUnavailable();
    } else if (error instanceof DatabaseUnavailableError) hooks.outage?.refused(route?.path, error);
    else if (diskFull(error)) {
      logger.warn({ requestId: ctx.requestId, route: route?.path, reason: (error as Error).message }, 'disk full: request refused');
      error = insufficientStorage();
    }
    if (error instanceof HttpError) {
      // RFC 9110 §15.5.2: a 401 names the scheme that would be accepted.
      const challenge = error.status === 401 ? WWW_AUTHENTICATE : null;
      write(res, ctx, route, startedAt, error.status, { 'Content-Type': JSON_TYPE, ...challenge, ...error.headers }, JSON.stringify({ error: error.message, code: error.code }));
      return;
    }
    logger.error({ err: error, requestId: ctx.requestId, route: route?.path }, 'unexpected error');
    write(res, ctx, route, startedAt, 500, { 'Content-Type': JSON_TYPE }, JSON.stringify({ error: '서버 내부 오류가 발생했습니다.', code: 'internal_error' }));
  };

  /** A stored file: headers only (HEAD, 304, 416) or its bytes streamed at the client's pace. */
  const sendFile = (res: uWS.HttpResponse, ctx: Context, route: Route, startedAt: number, file: OpenedFile, extra: Record<string, string>) => {
    if (ctx.aborted) return file.release();
    if (route.cacheControl !== undefined && !route.files) {
      file.release();
      throw new Error(`${route.path} answers a file: it needs files: true, or its Range header is never read`);
    }
    const plan = planFile(file, { head: ctx.method === 'head', ifNoneMatch: ctx.header('if-none-match'), ifModifiedSince: ctx.header('if-modified-since'), range: ctx.header('range') }, route.cacheControl, etagMatches);
    Object.assign(plan.headers, extra);
    if (plan.status === 416) {
      file.release();
      write(res, ctx, route, startedAt, 416, { ...plan.headers, 'Content-Type': JSON_TYPE }, JSON.stringify({ error: '요청한 범위가 파일 크기를 벗어납니다.', code: 'range_not_satisfiable' }));
      return;
    }
    const writeHead = () => {
      res.writeStatus(statusLine(plan.status));
      writeHeaders(res, ctx.id, CORS_FILE_LINES, plan.headers);
    };
    const range = plan.range;
    if (range === null) {
      file.release();
      ctx.aborted = true;
      inFlight--;
      const client = logged(route, plan.status) ? clientOf(ctx, route) : null;
      res.cork(() => {
        writeHead();
        if (plan.status === 304) res.endWithoutBody(0);
        else if (ctx.method === 'head') res.endWithoutBody(plan.length);
        else res.end('');
      });
      hooks.observe?.(route.path, ctx.method, plan.status, (performance.now() - startedAt) / 1000);
      if (client !== null) accessLog(ctx, route, plan.status, 0, startedAt, client);
      return;
    }
    // Answered from here on (no other write), but in flight until the last byte left.
    ctx.aborted = true;
    let gone = false;
    let stop: (() => void) | null = null;
    const client = logged(route, plan.status) ? clientOf(ctx, route) : null;
    const finished = () => {
      inFlight--;
      hooks.observe?.(route.path, ctx.method, plan.status, (performance.now() - startedAt) / 1000);
      if (client !== null) accessLog(ctx, route, plan.status, range.end - range.start + 1, startedAt, client);
    };
    ctx.onAbort = () => {
      gone = true;
      if (stop) stop();
    };
    const readInto = file.readInto;
    if (readInto) {
      stop = pumpToResponse(res, { ...file, readInto }, range, writeHead, finished);
      return;
    }
    file.stream(range.start, range.end).then((stream) => {
      if (gone) {
        stream.destroy();
        finished();
        return;
      }
      stop = pipeToResponse(res, stream, range.end - range.start + 1, writeHead, finished);
    }, (error: unknown) => {
      if (gone) return finished();
      // Nothing written yet: the ordinary error answer (it counts the request out).
      ctx.onAbort = null;
      ctx.aborted = false;
      writeError(res, ctx, route, startedAt, error);
    });
  };

  // Compressed variants of cacheable JSON, made once per content (compression.ts).
  const variantCache = new VariantCache();

  const answer = (res: uWS.HttpResponse, ctx: Context, route: Route, startedAt: number, result: Reply) => {
    if (result.file) {
      sendFile(res, ctx, route, startedAt, result.file, result.headers ?? {});
      return;
    }
    const status = result.status ?? 200;
    // The handler's own headers, and Content-Type (a copy: the handler may answer with it again).
    const headers: Record<string, string> = { ...result.headers };
    let body: string | Uint8Array | null;
    if (result.raw !== undefined) {
      body = result.raw;
      headers['Content-Type'] = result.contentType ?? 'application/octet-stream';
    } else if (result.json !== undefined) {
      body = JSON.stringify(result.json);
      headers['Content-Type'] = JSON_TYPE;
    } else body = null;
    if (!route.cacheControl || status !== 200 || body === null) {
      write(res, ctx, route, startedAt, status, headers, body);
      return;
    }
    const etag = result.etag ?? strongEtag(body);
    const contentType = headers['Content-Type']!;
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    // JSON, and any answer whose route made its own variants (the calendar feed).
    const vary = size >= COMPRESS_MIN_BYTES && (contentType === JSON_TYPE || result.variants !== undefined);
    const encoding = vary ? preferredEncoding(ctx.header('accept-encoding')) : null;
    if (encoding === null) {
      answerCacheable(res, ctx, route, startedAt, result.headers, contentType, vary, null, body, etag);
      return;
    }
    const plain = body;
    const withVariants = (variants: Variants) => {
      const variant = variants[encoding];
      if (!variant) answerCacheable(res, ctx, route, startedAt, result.headers, contentType, vary, null, plain, etag);
      else answerCacheable(res, ctx, route, startedAt, result.headers, contentType, vary, encoding, variant.body, variant.etag);
    };
    const variants = result.variants ?? variantCache.get(typeof body === 'string' ? Buffer.from(body) : body, etag);
    if (variants instanceof Promise) {
      variants.then(withVariants, (error: unknown) => {
        logger.warn({ err: error, requestId: ctx.requestId }, 'compression failed: answering uncompressed');
        withVariants({});
      });
    } else withVariants(variants);
  };

  const representationHeaders = new RepresentationHeaders();

  /**
   * A cacheable 200: strong ETag, and 304 when the client holds this representation. Its headers
   * are written as one block per representation, unless the handler added headers of its own.
   */
  const answerCacheable = (res: uWS.HttpResponse, ctx: Context, route: Route, startedAt: number, extra: Record<string, string> | undefined, contentType: string, vary: boolean, encoding: Encoding | null, body: string | Uint8Array, etag: string) => {
    const status = etagMatches(ctx.header('if-none-match'), etag) ? 304 : 200;
    if (extra === undefined) {
      const lines = representationHeaders.get(route, status, etag, contentType, vary, encoding);
      if (lines !== null) return write(res, ctx, route, startedAt, status, NO_HEADERS, status === 304 ? null : body, lines);
    }
    write(res, ctx, route, startedAt, status, { ...extra, ...cacheableHeaders(status, route.cacheControl!, contentType, vary, encoding, etag) }, status === 304 ? null : body);
  };

  /** Routes and answers one request; returns its context, answered or not. */
  const handle = (res: uWS.HttpResponse, req: uWS.HttpRequest, method: string): Context => {
    const startedAt = performance.now();
    const path = req.getUrl();
    // uWS does not count endWithoutBody(length > 0) as an answer: HEAD always needs an abort
    // handler, attached before any answer (no response may be touched after it ended).
    let headContext: Context | null = null;
    if (method === 'head') res.onAborted(() => headContext && aborted(headContext));
    const hasBody = METHODS_WITH_BODY.has(method);
    const routeMethod = (method === 'head' ? 'get' : method === 'del' ? 'delete' : method) as Method;
    inFlight++;

    let match: ReturnType<Router['match']>;
    let ctx: Context;
    try {
      match = method === 'options' ? router.match('get', path) : router.match(routeMethod, path);
    } catch (error) {
      const headers = capture(req, captured, {});
      ctx = headContext = new Context(method, path, '', headers, clientIp(headers, res.getRemoteAddressAsText(), trustProxy), requestIdOf(headers['x-request-id']), null);
      writeError(res, ctx, null, startedAt, error);
      return ctx;
    }
    const route = match && 'route' in match ? match.route : null;
    const cacheable = route?.cacheControl !== undefined && method !== 'options';
    const headers = capture(req, !cacheable ? captured : route!.files ? fileCaptured : cacheableCaptured, {});
    if (hasBody) capture(req, bodyHeaders, headers);
    const requestId = requestIdOf(headers['x-request-id']);
    const limit = route?.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const reader = hasBody ? new BodyReader(limit) : null;
    // A cacheable answer is the same for every client, so its route reads the address only to
    // charge uncached work: reading it on every request would cost an ArrayBuffer each, a tenth
    // of the cached path's cost.
    const ip = cacheable ? lateClientIp(req, res) : clientIp(headers, res.getRemoteAddressAsText(), trustProxy);
    ctx = headContext = new Context(method, path, req.getQuery() ?? '', headers, ip, requestId, reader);
    if (tracing) startRequestSpan(ctx, method, route?.path ?? null, path, req.getHeader('traceparent'), req.getHeader('tracestate'));
    // uWS delivers the body only to a handler attached before this callback returns.
    if (reader) res.onData((chunk, isLast) => reader.push(chunk, isLast));
    // A forwarded address that is not one is refused whether or not the route reads it (a
    // cacheable route reads it only for uncached work, and refuses it then).
    if (!cacheable) {
      try {
        void ctx.ip;
      } catch (error) {
        writeError(res, ctx, route, startedAt, error);
        return ctx;
      }
    }

    if (method === 'options') {
      if (match === null && path !== '*') {
        writeError(res, ctx, null, startedAt, new HttpError(404, '요청한 경로를 찾을 수 없습니다.'));
        return ctx;
      }
      // Every method routed at the path, so a browser sends the PUT or DELETE of a path that also has GET.
      const methods = new Set(['OPTIONS']);
      for (const routed of path === '*' ? [] : router.methodsAt(path) ?? []) {
        methods.add(routed.toUpperCase());
        if (routed === 'get') methods.add('HEAD');
      }
      write(res, ctx, null, startedAt, 204, {
        'Access-Control-Allow-Methods': [...methods].join(', '),
        'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
        'Access-Control-Max-Age': '600',
      }, null);
      return ctx;
    }
    if (!match) {
      writeError(res, ctx, null, startedAt, new HttpError(404, '요청한 경로를 찾을 수 없습니다.'));
      return ctx;
    }
    if (!route) {
      const allowed = 'allowed' in match ? match.allowed.map((m) => m.toUpperCase()).join(', ') : '';
      writeError(res, ctx, null, startedAt, new HttpError(405, '허용되지 않는 메서드입니다.', { Allow: allowed }));
      return ctx;
    }
    ctx.routePath = route.path;
    ctx.params = (match as { params: Record<string, string> }).params;
    try {
      checkQueryString(ctx.queryString);
    } catch (error) {
      writeError(res, ctx, route, startedAt, error);
      return ctx;
    }
    // The token before the size: a client without one learns 401 whatever it sends.
    if (route.auth === 'admin') {
      try {
        hooks.authenticateAdmin(ctx);
      } catch (error) {
        writeError(res, ctx, route, startedAt, error);
        return ctx;
      }
    }
    // NaN when absent or not a number: the body reader then counts what arrives against the limit.
    const declared = Number(headers['content-length'] ?? Number.NaN);
    if (reader && declared > limit) {
      reader.fail(new HttpError(413, '요청 본문이 너무 큽니다.'));
      writeError(res, ctx, route, startedAt, new HttpError(413, '요청 본문이 너무 큽니다.'));
      return ctx;
    }

    // An upload's body is held whole until its handler is done: past the budget, it waits its turn.
    let held = 0;
    if (reader && limit > DEFAULT_BODY_LIMIT) {
      held = Number.isSafeInteger(declared) ? declared : limit;
      if (!uploads.take(held)) {
        const busy = new HttpError(503, '다른 업로드를 처리하는 중이라 지금은 받을 수 없습니다. 잠시 후 다시 시도해 주세요.', { 'Retry-After': String(UPLOAD_RETRY_AFTER_S) }, 'upload_busy');
        reader.fail(busy);
        writeError(res, ctx, route, startedAt, busy);
        return ctx;
      }
    }

    // A handler that answers synchronously (a cached month) is written in this same callback,
    // corked by uWS itself; a promise is answered when it settles.
    try {
      const result = tracing ? inRequestSpan(ctx, () => route.handler(ctx)) : route.handler(ctx);
      if (result instanceof Promise) {
        (held > 0 ? result.finally(() => uploads.give(held)) : result)
          .then((settled) => finish(res, ctx, route, startedAt, settled))
          .catch((error: unknown) => writeError(res, ctx, route, startedAt, error));
      } else {
        uploads.give(held);
        finish(res, ctx, route, startedAt, result);
      }
    } catch (error) {
      uploads.give(held);
      writeError(res, ctx, route, startedAt, error);
    }
    return ctx;
  };

  const finish = (res: uWS.HttpResponse, ctx: Context, route: Route, startedAt: number, result: Reply) => {
    const reader = ctx.bodyReader;
    // A body over the limit fails the reader even when the handler never read it.
    if (reader?.failed instanceof HttpError) throw reader.failed;
    // A success waits for the rest of the body, so the keep-alive connection stays usable.
    if (reader && !reader.complete && !reader.failed) {
      reader.buffer().then(() => answer(res, ctx, route, startedAt, result), (error: unknown) => writeError(res, ctx, route, startedAt, error));
    } else answer(res, ctx, route, startedAt, result);
  };

  /** The client left before the answer (or during a streamed file). */
  const aborted = (ctx: Context) => {
    if (!ctx.aborted) inFlight--;
    if (tracing && !ctx.aborted) endRequestSpan(ctx, 499);
    ctx.aborted = true;
    ctx.onAbort?.();
    ctx.bodyReader?.fail(new Error('request aborted'));
  };

  const onRequest = (res: uWS.HttpResponse, req: uWS.HttpRequest, method: string) => {
    // RFC 9112 §6.3: conflicting framing is refused before routing, and the connection closed.
    if (conflictingFraming(req)) {
      refuseFraming(res, FRAMING_BODY, FRAMING_HEADERS);
      hooks.observe?.('unmatched', method, 400, 0);
      return;
    }
    synchronous = true;
    try {
      const ctx = handle(res, req, method);
      // Answered in this callback (a cached month, a 404): uWS needs no abort handler. Otherwise
      // one is required before the callback returns (HEAD has its own, see handle).
      if (!ctx.aborted && ctx.method !== 'head') res.onAborted(() => aborted(ctx));
    } finally {
      synchronous = false;
    }
  };
  options.mount?.(app);
  // GET has its own handler (uWS prefers it to `any`): the method is known without asking uWS.
  app.get('/*', (res, req) => onRequest(res, req, 'get'));
  app.any('/*', (res, req) => onRequest(res, req, req.getMethod()));

  return new Promise((resolve, reject) => {
    // Exclusive: without it uWS sets SO_REUSEPORT and a second process on PORT would share the traffic.
    (app.listen as unknown as ListenWithOptions).call(app, '0.0.0.0', port, LIBUS_LISTEN_EXCLUSIVE_PORT, (socket) => {
      if (!socket) {
        reject(new Error(`could not listen on port ${port}`));
        return;
      }
      let listening: uWS.us_listen_socket | null = socket;
      resolve({
        port: uWS.us_socket_local_port(socket),
        inFlight: () => inFlight,
        stopListening: () => {
          if (listening) uWS.us_listen_socket_close(listening);
          listening = null;
        },
        closeConnections: () => (app as uWS.TemplatedApp & { close(): void }).close(),
      });
    });
  });
}
