-- Trace context of the write that appended an outbox entry (W3C `traceparent`, with `tracestate` when
-- present, as JSON), so the relay's publish and the consumers join that write's trace. NULL when
-- tracing was off (OTEL_EXPORTER_OTLP_ENDPOINT unset).
ALTER TABLE outbox ADD COLUMN trace_context jsonb;
