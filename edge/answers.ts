// A request's answer, written once: the status line and headers (response-headers.ts) and the body,
// corked in uWS; a cacheable JSON answer with its ETag, 304 and compressed variant; a stored file
// streamed at the client's pace; every error turned into {error, code}. Each answer is counted
// out of the requests in flight, observed (metrics), logged (access-log.ts) and its span ended.
import type uWS from 'uWebSockets.js';
import { databaseUnavailable } from '../shared/db/database.ts';
import { DatabaseUnavailableError, diskFull, HttpError, insufficientStorage, serviceUnavailable } from '../shared/errors.ts';
import type { Logger } from '../shared/runtime/logger.ts';
import { tracing } from '../shared/runtime/tracing.ts';
import { COMPRESS_MIN_BYTES, preferredEncoding, strongEtag, VariantCache, type Encoding, type Variants } from '../shared/cache/compression.ts';
import type { OpenedFile } from '../shared/storage/storage.ts';
import { createAccessLog, type AccessLogOptions } from './access-log.ts';
import { earlyAnswer } from './body-limits.ts';
import { versionedEtag } from '../shared/precondition.ts';
import { etagMatches } from './conditional.ts';
import type { Context, Reply } from './context.ts';
import { pipeToResponse, planFile, pumpToResponse } from './file-response.ts';
import type { OutageLog } from './outage-log.ts';
import { requestIdValue } from './request-id.ts';
import { endRequestSpan } from './request-tracing.ts';
import type { Route } from './router.ts';
import { cacheableHeaders, CORS_FILE_LINES, CORS_LINES, H_ALLOW_ORIGIN, H_REQUEST_ID, JSON_TYPE, NO_HEADERS, RepresentationHeaders, statusLine, writeHeaders } from './response-headers.ts';

/** The hooks an answer calls (EdgeHooks). */
export interface AnswerHooks {
  /** Called once per answered request (metrics). */
  observe?(route: string, method: string, status: number, seconds: number): void;
  /** Told of each request refused because the database cannot be reached (one log line per outage). */
  outage?: OutageLog;
}

/** What the request path and its answers share, one per edge. */
export interface EdgeState {
  /** Requests received and not yet answered or aborted. */
  inFlight: number;
  /** True inside uWS's request callback, where writes are corked already. */
  synchronous: boolean;
}

const WWW_AUTHENTICATE = Object.freeze({ 'WWW-Authenticate': 'Bearer' });

/** The client's address, or undefined when its forwarded header is not an address (that answer is a 400). */
function addressOrNone(ctx: Context): string | undefined {
  try {
    return ctx.ip;
  } catch {
    return undefined;
  }
}

/** The status line, headers and body of one answer, in uWS (corked by the caller or by uWS). */
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
  else if (typeof body !== 'string' && body.byteLength > STREAM_FROM_BYTES) endFromShared(res, body);
  else res.end(body);
};

/** Bodies larger than this (a calendar feed) are sent from the caller's bytes as the client reads. */
const STREAM_FROM_BYTES = 64 * 1024;

/**
 * Sends a large body without a copy per client: `end` would copy what the socket cannot take now
 * into uWS's buffer, so a hundred slow readers of a cached 4 MB feed would hold a hundred copies.
 * `tryEnd` writes only what the socket takes; the rest is written from the same shared bytes when
 * it drains.
 */
function endFromShared(res: uWS.HttpResponse, body: Uint8Array): void {
  const total = body.byteLength;
  const start = res.getWriteOffset();
  const [ok, done] = res.tryEnd(body, total);
  if (ok || done) return;
  let gone = false;
  // Still sending after the handler returned: uWS needs an abort handler (it replaces the request's, which has run its course).
  res.onAborted(() => void (gone = true));
  res.onWritable((offset) => {
    if (gone) return true;
    const [written] = res.tryEnd(body.subarray(offset - start), total);
    return written;
  });
}

/** The answering functions of one edge; the request handler (request-handler.ts) calls them. */
export type Answers = ReturnType<typeof createAnswers>;

export function createAnswers(hooks: AnswerHooks, logger: Logger, options: AccessLogOptions, state: EdgeState) {
  // The access log (access-log.ts): route template, never the path or query.
  const { logged, accessLog } = createAccessLog(logger, options);
  /**
   * The address for the access log, read before the answer is written (uWS discards the response
   * after it): a cacheable route's only inside uWS's callback (lateClientIp, request-handler.ts),
   * else none.
   */
  const clientOf = (ctx: Context, route: Route | null) => (route?.cacheControl === undefined || state.synchronous ? addressOrNone(ctx) : undefined);

  /** `lines`, when given, are all the headers but the request id, made by RepresentationHeaders. */
  const write = (res: uWS.HttpResponse, ctx: Context, route: Route | null, startedAt: number, status: number, headers: Record<string, string>, body: string | Uint8Array | null, lines: Buffer | null = null) => {
    if (ctx.aborted) return;
    ctx.aborted = true; // answered: later writes are ignored
    state.inFlight--;
    const client = logged(route, status) ? clientOf(ctx, route) : null;
    const early = earlyAnswer(ctx.bodyReader, ctx.header('content-length'));
    // uWS corks the synchronous scope of a request handler itself; later answers cork here.
    if (state.synchronous) writeResponse(res, ctx, status, headers, body, early, lines);
    else res.cork(() => writeResponse(res, ctx, status, headers, body, early, lines));
    hooks.observe?.(route?.path ?? 'unmatched', ctx.method, status, (performance.now() - startedAt) / 1000);
    if (client !== null) accessLog(ctx, route, status, body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, startedAt, client);
    if (tracing) endRequestSpan(ctx, status);
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
      state.inFlight--;
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
      state.inFlight--;
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
      if (result.version !== undefined && status === 200 && body !== null) headers.ETag = versionedEtag(result.version, strongEtag(body));
      write(res, ctx, route, startedAt, status, headers, body);
      return;
    }
    const etag = result.etag ?? (result.version === undefined ? strongEtag(body) : versionedEtag(result.version, strongEtag(body)));
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
    if (!ctx.aborted) state.inFlight--;
    if (tracing && !ctx.aborted) endRequestSpan(ctx, 499);
    ctx.aborted = true;
    ctx.onAbort?.();
    ctx.bodyReader?.fail(new Error('request aborted'));
  };

  return { write, writeError, finish, aborted };
}
