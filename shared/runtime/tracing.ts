// OpenTelemetry traces: a span per request at the edge, per worker-pool task, per outbox
// publish and per consumed bus message, exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is
// set. The trace context travels with the work: in the outbox row (`trace_context`), then in the bus
// message's headers (PostgreSQL bus: the `headers` column; Kafka: record headers), so an admin write,
// its relay and the consumers, or a bot pass, the schedule writer and the indexer, are one trace.
//
// Off (the default), `tracing` is false and every call site checks it before doing anything: no
// span object, no context lookup, not even the OpenTelemetry API loaded: nothing on the cached GET
// path but one boolean test.
import type * as OpenTelemetry from '@opentelemetry/api';
import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { Logger } from './logger.ts';

/** The OpenTelemetry API, loaded by startTracing: a process that never traces never loads it. */
let api: typeof OpenTelemetry = null as unknown as typeof OpenTelemetry;

/** OpenTelemetry's SpanKind values, usable before the API is loaded. */
export const SpanKind = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 } as const;
type Kind = (typeof SpanKind)[keyof typeof SpanKind];
const SPAN_STATUS_ERROR = 2; // SpanStatusCode.ERROR

/** True while a tracer provider is running in this process. Read it before calling anything else here. */
export let tracing = false;

/** W3C trace-context headers, as stored with an outbox row and carried by a bus message. */
export type TraceHeaders = Record<string, string>;

const TRACER = 'schedule-backend';
let shutdownProvider: (() => Promise<void>) | null = null;

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
}

/**
 * Starts the process-wide tracer provider (AsyncLocalStorage context, W3C propagator, batch export).
 * The SDK is loaded only here, so a process without OTEL_EXPORTER_OTLP_ENDPOINT never loads it.
 * One provider per process; a second call while one runs keeps the first.
 */
export async function startTracing(options: TracingOptions, logger: Logger): Promise<() => Promise<void>> {
  if (shutdownProvider) return async () => undefined;
  api = await import('@opentelemetry/api');
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes, detectResources, envDetector }, { ATTR_SERVICE_NAME }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const resource = detectResources({ detectors: [envDetector] }).merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }));
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })] });
  provider.register();
  tracing = true;
  logger.info({ endpoint: options.endpoint, serviceName: options.serviceName }, 'tracing: OTLP/HTTP export on');
  const shutdown = async () => {
    if (shutdownProvider !== shutdown) return;
    tracing = false;
    shutdownProvider = null;
    try {
      await provider.shutdown(); // flushes the spans still batched
    } catch (error) {
      logger.warn({ err: error }, 'tracing: the last spans could not be exported');
    }
    api.trace.disable();
    api.context.disable();
    api.propagation.disable();
  };
  shutdownProvider = shutdown;
  return shutdown;
}

const tracer = () => api.trace.getTracer(TRACER);

/** The context a carrier (an incoming request, a message's headers, an outbox row) names, or the root. */
export function extractContext(headers: TraceHeaders | null | undefined): Context {
  if (!headers) return api.ROOT_CONTEXT;
  return api.propagation.extract(api.ROOT_CONTEXT, headers);
}

/** The active span's context as W3C headers (`traceparent`, `tracestate`), or undefined outside any span. */
export function currentTraceHeaders(active: Context = api.context.active()): TraceHeaders | undefined {
  if (!api.trace.getSpan(active)) return undefined;
  const headers: TraceHeaders = {};
  api.propagation.inject(active, headers);
  return headers.traceparent ? headers : undefined;
}

/** Runs `work` in a new span (child of `parent`, else of the active span); ends it when the work settles. */
export async function inSpan<T>(name: string, kind: Kind, attributes: Attributes, work: (span: Span) => Promise<T>, parent?: Context): Promise<T> {
  const base = parent ?? api.context.active();
  const span = tracer().startSpan(name, { kind: kind as number as OpenTelemetry.SpanKind, attributes }, base);
  try {
    return await api.context.with(api.trace.setSpan(base, span), () => work(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SPAN_STATUS_ERROR, message: error instanceof Error ? error.message : String(error) });
}

export function startSpan(name: string, kind: Kind, attributes: Attributes, parent?: Context): Span {
  return tracer().startSpan(name, { kind: kind as number as OpenTelemetry.SpanKind, attributes }, parent ?? api.context.active());
}

/** Runs `work` with `span` active. */
export function withSpan<T>(span: Span, work: () => T): T {
  return api.context.with(api.trace.setSpan(api.context.active(), span), work);
}

/** Attributes of a consumed or published bus message (OpenTelemetry messaging conventions). */
export function messageAttributes(topic: string, key: string, id?: string, group?: string): Attributes {
  return {
    'messaging.system': 'schedule-bus',
    'messaging.destination.name': topic,
    'messaging.message.key': key,
    ...(id ? { 'messaging.message.id': id } : {}),
    ...(group ? { 'messaging.consumer.group.name': group } : {}),
  };
}

/**
 * A consumer span per message, each the child of the span that published it, around work that
 * handles them together (a batch); the first message's span is active during the work.
 */
export async function inConsumerSpans<T>(group: string, messages: ReadonlyArray<{ topic: string; key: string; id: string; headers?: TraceHeaders | undefined }>, work: () => Promise<T>): Promise<T> {
  const spans = messages.map((m) => startSpan(`consume ${m.topic}`, SpanKind.CONSUMER, messageAttributes(m.topic, m.key, m.id, group), extractContext(m.headers)));
  try {
    return await (spans[0] ? withSpan(spans[0], work) : work());
  } catch (error) {
    for (const span of spans) failSpan(span, error);
    throw error;
  } finally {
    for (const span of spans) span.end();
  }
}

/** A context whose active span is `span` (to inject it into a message's headers). */
export function traceContextOf(span: Span): Context {
  return api.trace.setSpan(api.ROOT_CONTEXT, span);
}
