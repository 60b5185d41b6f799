// The uWebSockets.js edge: one catch-all handler that captures the request, routes it, reads the
// body with a limit, runs the handler and writes the answer corked. One error path makes {error}.
import { createHash, randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import uWS from 'uWebSockets.js';
import { HttpError } from '../shared/errors.ts';
import type { Logger } from '../shared/logger.ts';
import { COMPRESS_MIN_BYTES, preferredEncoding, VariantCache, type Variants } from '../shared/compression.ts';
import { BodyReader, BODY_HEADERS, CAPTURED_HEADERS, Context, type HeaderName, type Reply } from './context.ts';
import type { Method, Route, Router } from './router.ts';

export const DEFAULT_BODY_LIMIT = 256 * 1024;

export interface EdgeHooks {
  /** Runs before every `auth: 'admin'` route; throws 401 when the request carries no valid admin token. */
  authenticateAdmin(ctx: Context): void;
  /** Called once per answered request (metrics). */
  observe?(route: string, method: string, status: number, seconds: number): void;
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

const METHODS_WITH_BODY = new Set(['post', 'put', 'patch', 'delete']);
const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, If-None-Match, X-Request-Id';
const CORS_EXPOSE_HEADERS = 'ETag, X-Request-Id, Retry-After';
const JSON_TYPE = 'application/json; charset=utf-8';
const statusLines = new Map<number, string>();
const statusLine = (status: number) => {
  let line = statusLines.get(status);
  if (line === undefined) statusLines.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()));
  return line;
};

const decoder = new TextDecoder();

/** Request ids: a random tag per process and a counter, unique across replicas and cheap to make. */
const PROCESS_TAG = randomBytes(6).toString('hex');
let requestSequence = 0;
const nextRequestId = () => `${PROCESS_TAG}-${(++requestSequence).toString(36)}`;

/** auth-service.md 4.3: first x-forwarded-for entry, else x-real-ip, else the connection address. Decoded only when a route asks. */
function clientIp(headers: Partial<Record<HeaderName, string>>, remote: ArrayBuffer): () => string {
  return () => {
    const forwarded = headers['x-forwarded-for']?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
    const real = headers['x-real-ip']?.trim();
    if (real) return real;
    return decoder.decode(remote);
  };
}

export const strongEtag = (body: string | Uint8Array) =>
  `"${createHash('sha1').update(body).digest('base64url')}"`;

export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim() === etag);
}

export function startEdge(router: Router, hooks: EdgeHooks, logger: Logger, port: number): Promise<Edge> {
  const app = uWS.App();
  let inFlight = 0;

  const write = (res: uWS.HttpResponse, ctx: Context, route: Route | null, startedAt: number, status: number, headers: Record<string, string>, body: string | Uint8Array | null, closeConnection = false) => {
    if (ctx.aborted) return;
    ctx.aborted = true; // answered: later writes are ignored
    inFlight--;
    // A body not read to its end cannot stay on a keep-alive connection.
    if (ctx.bodyReader && !ctx.bodyReader.complete) closeConnection = true;
    res.cork(() => {
      res.writeStatus(statusLine(status));
      res.writeHeader('X-Request-Id', ctx.requestId);
      res.writeHeader('Access-Control-Allow-Origin', '*');
      res.writeHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
      for (const name in headers) res.writeHeader(name, headers[name]!);
      if (body === null) res.endWithoutBody(0, closeConnection);
      else if (ctx.method === 'head') res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, closeConnection);
      else res.end(body, closeConnection);
    });
    hooks.observe?.(route?.path ?? 'unmatched', ctx.method, status, (performance.now() - startedAt) / 1000);
  };

  const writeError = (res: uWS.HttpResponse, ctx: Context, route: Route | null, startedAt: number, error: unknown) => {
    if (error instanceof HttpError) {
      write(res, ctx, route, startedAt, error.status, { 'Content-Type': JSON_TYPE, ...error.headers }, JSON.stringify({ error: error.message }));
      return;
    }
    logger.error({ err: error, requestId: ctx.requestId, route: route?.path }, 'unexpected error');
    write(res, ctx, route, startedAt, 500, { 'Content-Type': JSON_TYPE }, JSON.stringify({ error: '서버 내부 오류가 발생했습니다.' }));
  };

  // Compressed variants of cacheable JSON, made once per content (compression.ts).
  const variantCache = new VariantCache();

  const answer = (res: uWS.HttpResponse, ctx: Context, route: Route, startedAt: number, result: Reply) => {
    const status = result.status ?? 200;
    const headers: Record<string, string> = result.headers ?? {};
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
    headers['Cache-Control'] = route.cacheControl;
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    if (size < COMPRESS_MIN_BYTES || headers['Content-Type'] !== JSON_TYPE) {
      answerCacheable(res, ctx, route, startedAt, headers, body, etag);
      return;
    }
    headers.Vary = 'Accept-Encoding';
    const encoding = preferredEncoding(ctx.header('accept-encoding'));
    if (encoding === null) {
      answerCacheable(res, ctx, route, startedAt, headers, body, etag);
      return;
    }
    const plain = body;
    const withVariants = (variants: Variants) => {
      const variant = variants[encoding];
      if (!variant) return answerCacheable(res, ctx, route, startedAt, headers, plain, etag);
      headers['Content-Encoding'] = encoding;
      answerCacheable(res, ctx, route, startedAt, headers, variant.body, variant.etag);
    };
    const variants = result.variants ?? variantCache.get(typeof body === 'string' ? Buffer.from(body) : body, etag);
    if (variants instanceof Promise) {
      variants.then(withVariants, (error: unknown) => {
        logger.warn({ err: error, requestId: ctx.requestId }, 'compression failed: answering uncompressed');
        withVariants({});
      });
    } else withVariants(variants);
  };

  /** A cacheable 200: strong ETag, and 304 when the client holds this representation. */
  const answerCacheable = (res: uWS.HttpResponse, ctx: Context, route: Route, startedAt: number, headers: Record<string, string>, body: string | Uint8Array, etag: string) => {
    headers.ETag = etag;
    if (etagMatches(ctx.header('if-none-match'), etag)) {
      delete headers['Content-Encoding'];
      write(res, ctx, route, startedAt, 304, headers, null);
      return;
    }
    write(res, ctx, route, startedAt, 200, headers, body);
  };

  app.any('/*', (res, req) => {
    const startedAt = performance.now();
    const method = req.getMethod();
    const path = req.getUrl();
    const headers: Partial<Record<HeaderName, string>> = {};
    for (const name of CAPTURED_HEADERS) {
      const value = req.getHeader(name);
      if (value !== '') headers[name] = value;
    }
    if (METHODS_WITH_BODY.has(method)) {
      for (const name of BODY_HEADERS) {
        const value = req.getHeader(name);
        if (value !== '') headers[name] = value;
      }
    }
    const given = headers['x-request-id'];
    const requestId = given && /^[A-Za-z0-9._-]{1,64}$/.test(given) ? given : nextRequestId();
    const ip = clientIp(headers, res.getRemoteAddressAsText());
    const routeMethod = (method === 'head' ? 'get' : method === 'del' ? 'delete' : method) as Method;
    inFlight++;

    let match: ReturnType<Router['match']>;
    let ctx: Context;
    try {
      match = method === 'options' ? router.match('get', path) : router.match(routeMethod, path);
    } catch (error) {
      ctx = new Context(method, path, '', headers, ip, requestId, null);
      res.onAborted(() => {
        if (!ctx.aborted) inFlight--;
        ctx.aborted = true;
      });
      writeError(res, ctx, null, startedAt, error);
      return;
    }
    const route = match && 'route' in match ? match.route : null;
    const limit = route?.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const reader = METHODS_WITH_BODY.has(method) ? new BodyReader(limit) : null;
    ctx = new Context(method, path, req.getQuery() ?? '', headers, ip, requestId, reader);
    res.onAborted(() => {
      if (!ctx.aborted) inFlight--;
      ctx.aborted = true;
      reader?.fail(new Error('request aborted'));
    });
    // uWS delivers the body only to a handler attached before this callback returns.
    if (reader) res.onData((chunk, isLast) => reader.push(chunk, isLast));

    if (method === 'options') {
      if (match === null && path !== '*') {
        writeError(res, ctx, null, startedAt, new HttpError(404, '요청한 경로를 찾을 수 없습니다.'));
        return;
      }
      const allowed = match && 'allowed' in match ? match.allowed : [];
      const methods = new Set(['OPTIONS', ...allowed.map((m) => m.toUpperCase())]);
      if (route) methods.add('GET').add('HEAD');
      write(res, ctx, null, startedAt, 204, {
        'Access-Control-Allow-Methods': [...methods].join(', '),
        'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
        'Access-Control-Max-Age': '600',
      }, null);
      return;
    }
    if (!match) {
      writeError(res, ctx, null, startedAt, new HttpError(404, '요청한 경로를 찾을 수 없습니다.'));
      return;
    }
    if (!route) {
      const allowed = 'allowed' in match ? match.allowed.map((m) => m.toUpperCase()).join(', ') : '';
      writeError(res, ctx, null, startedAt, new HttpError(405, '허용되지 않는 메서드입니다.', { Allow: allowed }));
      return;
    }
    ctx.routePath = route.path;
    ctx.params = (match as { params: Record<string, string> }).params;
    const declared = headers['content-length'];
    if (reader && declared !== undefined && Number(declared) > limit) {
      reader.fail(new HttpError(413, '요청 본문이 너무 큽니다.'));
      writeError(res, ctx, route, startedAt, new HttpError(413, '요청 본문이 너무 큽니다.'));
      return;
    }

    // A handler that answers synchronously (a cached month) is written in this same callback,
    // corked by uWS itself; a promise is answered when it settles.
    const finish = (result: Reply) => {
      // A body over the limit fails the reader even when the handler never read it.
      if (reader?.failed instanceof HttpError) throw reader.failed;
      // A success waits for the rest of the body, so the keep-alive connection stays usable.
      if (reader && !reader.complete && !reader.failed) {
        reader.buffer().then(() => answer(res, ctx, route, startedAt, result), (error: unknown) => writeError(res, ctx, route, startedAt, error));
      } else answer(res, ctx, route, startedAt, result);
    };
    try {
      if (route.auth === 'admin') hooks.authenticateAdmin(ctx);
      const result = route.handler(ctx);
      if (result instanceof Promise) {
        result.then(finish).catch((error: unknown) => writeError(res, ctx, route, startedAt, error));
      } else finish(result);
    } catch (error) {
      writeError(res, ctx, route, startedAt, error);
    }
  });

  return new Promise((resolve, reject) => {
    app.listen('0.0.0.0', port, (socket) => {
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
