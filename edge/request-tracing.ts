// The edge's span per request (only while tracing is on; see shared/runtime/tracing.ts). The span starts when
// the request is routed, takes an incoming W3C `traceparent` as its parent, is active while the route
// handler runs (so pool tasks and outbox entries join its trace) and ends when the answer is written.
import type { Span } from '@opentelemetry/api';
import { extractContext, SpanKind, startSpan, withSpan } from '../shared/runtime/tracing.ts';

const spans = new WeakMap<object, Span>();

export function startRequestSpan(request: object, method: string, route: string | null, path: string, traceparent: string, tracestate: string): void {
  const verb = method.toUpperCase();
  const parent = traceparent ? extractContext(tracestate ? { traceparent, tracestate } : { traceparent }) : undefined;
  const span = startSpan(route ? `${verb} ${route}` : verb, SpanKind.SERVER, {
    'http.request.method': verb,
    'url.path': path,
    ...(route ? { 'http.route': route } : {}),
  }, parent);
  spans.set(request, span);
}

/** Runs the route handler with the request's span active. */
export function inRequestSpan<T>(request: object, work: () => T): T {
  const span = spans.get(request);
  return span ? withSpan(span, work) : work();
}

export function endRequestSpan(request: object, status: number): void {
  const span = spans.get(request);
  if (!span) return;
  spans.delete(request);
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: 2 }); // SpanStatusCode.ERROR: 4xx is the client's, not the server's
  span.end();
}
