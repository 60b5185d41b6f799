// uWS's request callback: the request's headers captured while uWS still holds them (and the
// client address only when the route may need it), then routed: a CORS preflight, 404 or 405, the
// query string, the admin token, the body limit and the upload budget (body-limits.ts) are
// checked before the route's handler runs; its reply goes to the answers (answers.ts).
import type uWS from 'uWebSockets.js';
import { HttpError } from '../shared/errors.ts';
import { tracing } from '../shared/runtime/tracing.ts';
import type { Answers, AnswerHooks, EdgeState } from './answers.ts';
import { DEFAULT_BODY_LIMIT, UPLOAD_RETRY_AFTER_S, type UploadBudget } from './body-limits.ts';
import { clientIp } from './client-address.ts';
import { BodyReader, BODY_HEADERS, CACHEABLE_HEADERS, CAPTURED_HEADERS, Context, FILE_HEADERS, type HeaderName } from './context.ts';
import { conflictingFraming, FRAMING_ERROR, refuseFraming } from './framing.ts';
import { allLines } from './header-lines.ts';
import { requestIdOf } from './request-id.ts';
import { inRequestSpan, startRequestSpan } from './request-tracing.ts';
import { asBytes, CORS_ALLOW_HEADERS, JSON_TYPE } from './response-headers.ts';
import { checkQueryString, type Method, type Router } from './router.ts';

export interface EdgeHooks extends AnswerHooks {
  /** Runs before every `auth: 'admin'` route; throws 401 when the request carries no valid admin token. */
  authenticateAdmin(ctx: Context): void;
}

const METHODS_WITH_BODY = new Set(['post', 'put', 'patch', 'delete']);
const FRAMING_BODY = JSON.stringify({ error: FRAMING_ERROR });
const FRAMING_HEADERS = [['Content-Type', JSON_TYPE], ['X-Content-Type-Options', 'nosniff'], ['Access-Control-Allow-Origin', '*']] as const;

/** The function uWS calls with each request (and its method, lower case, as uWS names it). */
export function createRequestHandler(router: Router, hooks: EdgeHooks, answers: Answers, state: EdgeState, trustProxy: number, uploads: UploadBudget) {
  const { write, writeError, finish, aborted } = answers;
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
  const addressCaptured = named(trustProxy > 0 ? ['x-forwarded-for', 'x-real-ip'] : []);
  /**
   * The address getter of a cacheable route. Its answer is the same for every client, but the cost
   * of an uncached one is charged to the client (the query budget): only then is the address read,
   * inside uWS's request callback, where the request can still be read. Asked later (after an
   * await) it is a programming error.
   */
  const lateClientIp = (req: uWS.HttpRequest, res: uWS.HttpResponse) => () => {
    if (!state.synchronous) throw new Error('a cacheable route reads the client address before its first await');
    return clientIp(capture(req, addressCaptured, {}), res.getRemoteAddressAsText(), trustProxy)();
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
    state.inFlight++;

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

  const onRequest = (res: uWS.HttpResponse, req: uWS.HttpRequest, method: string) => {
    // RFC 9112 §6.3: conflicting framing is refused before routing, and the connection closed.
    if (conflictingFraming(req)) {
      refuseFraming(res, FRAMING_BODY, FRAMING_HEADERS);
      hooks.observe?.('unmatched', method, 400, 0);
      return;
    }
    state.synchronous = true;
    try {
      const ctx = handle(res, req, method);
      // Answered in this callback (a cached month, a 404): uWS needs no abort handler. Otherwise
      // one is required before the callback returns (HEAD has its own, see handle).
      if (!ctx.aborted && ctx.method !== 'head') res.onAborted(() => aborted(ctx));
    } finally {
      state.synchronous = false;
    }
  };
  return onRequest;
}
