// OpenTelemetry traces (issue 14): a span per request at the edge, per worker-pool task, per outbox
// publish and per consumed bus message, exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is
// set. The trace context travels with the work: in the outbox row (`traceparent`), then in the bus
// message's headers (PostgreSQL bus: the `headers` column; Kafka: record headers), so an admin write,
// its relay and the consumers, or a bot pass, the schedule writer and the indexer, are one trace.
//
// Off (the default), `tracing` is false and every call site checks it before doing anything: no
// span object, no context lookup, nothing on the cached GET path but one boolean test.
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { Logger } from './logger.ts';

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
    trace.disable();
    context.disable();
    propagation.disable();
  };
  shutdownProvider = shutdown;
  return shutdown;
}

const tracer = () => trace.getTracer(TRACER);

/** The context a carrier (an incoming request, a message's headers, an outbox row) names, or the root. */
export function extractContext(headers: TraceHeaders | null | undefined): Context {
  if (!headers) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** The active span's context as W3C headers (`traceparent`, `tracestate`), or undefined outside any span. */
export function currentTraceHeaders(active: Context = context.active()): TraceHeaders | undefined {
  if (!trace.getSpan(active)) return undefined;
  const headers: TraceHeaders = {};
  propagation.inject(active, headers);
  return headers.traceparent ? headers : undefined;
}

/** Runs `work` in a new span (child of `parent`, else of the active span); ends it when the work settles. */
export async function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, work: (span: Span) => Promise<T>, parent?: Context): Promise<T> {
  const span = tracer().startSpan(name, { kind, attributes }, parent ?? context.active());
  try {
    return await context.with(trace.setSpan(parent ?? context.active(), span), () => work(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

export function startSpan(name: string, kind: SpanKind, attributes: Attributes, parent?: Context): Span {
  return tracer().startSpan(name, { kind, attributes }, parent ?? context.active());
}

export function withSpan<T>(span: Span, work: () => T): T {
  return context.with(trace.setSpan(context.active(), span), work);
}

export { SpanKind };

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
  return trace.setSpan(ROOT_CONTEXT, span);
}
