// Traces (issue 14): with OTEL_EXPORTER_OTLP_ENDPOINT set, the service exports OTLP/HTTP spans, and
// one admin create is one trace from the edge through the outbox relay to the bus consumers. The
// collector is a plain node:http server in this process that decodes the OTLP JSON payloads.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { tracing } from '../shared/tracing.ts';
import { SEARCH_INDEXER_GROUP } from '../workers/actors/search-indexer.ts';
import { insertMember } from './helpers/factory.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, string | number | boolean>;
}

// OTLP's SpanKind numbers.
const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

const received: ReceivedSpan[] = [];
const requests: Array<{ path: string; contentType: string }> = [];
let collector: Server;
let service: TestService;

type Any = any;
const attributeValue = (value: Any) => value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : value?.boolValue ?? value?.doubleValue);
const attributes = (list: Any[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, attributeValue(a.value)]));

test.before(async () => {
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ path: request.url ?? '', contentType: request.headers['content-type'] ?? '' });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributes(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            received.push({ traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? '', name: span.name, kind: span.kind, service, attributes: attributes(span.attributes) });
          }
        }
      }
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  collector.listen(0, '127.0.0.1');
  await once(collector, 'listening');
  const { port } = collector.address() as AddressInfo;
  service = await startTestService({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_SERVICE_NAME: 'schedule-test' });
});

test.after.always(async () => {
  await service?.stop();
  collector?.close();
});

async function waitFor<T>(what: string, find: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; spans received: ${received.map((s) => `${s.name} (${s.kind})`).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('an admin create is one trace: edge request → outbox publish by the relay → the search indexer consuming it', async (t) => {
  t.true(tracing, 'OTEL_EXPORTER_OTLP_ENDPOINT turns tracing on');
  const token = await adminToken(service.url);
  const member = await insertMember(service.running.services.db, { name: '추적멤버' });
  const data = new FormData();
  data.append('payload', JSON.stringify({ title: '추적 축제 공연', date: '2026-05-14', time: '19:30', schoolName: '한국외국어대학교', memberIds: [member.id],
    venue: { name: '추적 대운동장', address: '경기 용인시 처인구 모현읍 외대로 81', roadAddress: '외대로 81', lat: 37.33, lng: 127.27, map_id: `map-trace-${Date.now()}` },
  }));
  // An incoming W3C trace context is the parent of the edge's span.
  const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const created = await call(service.url, 'POST', '/api/admin/events', { body: data, token, headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` } });
  t.is(created.status, 201, JSON.stringify(created.body));

  const edge = await waitFor('the edge span', () => received.find((s) => s.kind === SERVER && s.attributes['http.route'] === '/api/admin/events' && s.attributes['http.request.method'] === 'POST'));
  t.is(edge.name, 'POST /api/admin/events');
  t.is(edge.traceId, callerTrace, 'the caller\'s traceparent is continued');
  t.is(edge.parentSpanId, '00f067aa0ba902b7');
  t.is(edge.attributes['http.response.status_code'], 201);
  t.is(edge.service, 'schedule-test');

  const publish = await waitFor('the relay\'s publish span', () =>
    received.find((s) => s.kind === PRODUCER && s.traceId === edge.traceId && s.attributes['messaging.destination.name'] === 'schedule.changed'),
  );
  t.is(publish.parentSpanId, edge.spanId, 'the outbox entry carried the request\'s context to the relay');
  t.is(publish.name, 'outbox publish schedule.changed');

  const indexer = await waitFor('the indexer\'s consumer span', () =>
    received.find((s) => s.kind === CONSUMER && s.traceId === edge.traceId && s.attributes['messaging.consumer.group.name'] === SEARCH_INDEXER_GROUP),
  );
  t.is(indexer.parentSpanId, publish.spanId, 'the bus message carried the publish span\'s context');
  t.is(indexer.name, 'consume schedule.changed');
  t.true(requests.every((r) => r.path === '/v1/traces' && r.contentType.startsWith('application/json')), 'OTLP/HTTP JSON to <endpoint>/v1/traces');
});

test('a pool task is a span inside the request that ran it', async (t) => {
  const login = await call(service.url, 'POST', '/api/auth/login', { json: { username: 'admin', password: 'wrong-password-1' } });
  t.is(login.status, 401);
  const edge = await waitFor('the login span', () => received.find((s) => s.kind === SERVER && s.attributes['http.route'] === '/api/auth/login' && s.attributes['http.response.status_code'] === 401));
  const pool = await waitFor('the bcrypt task span', () => received.find((s) => s.parentSpanId === edge.spanId && s.attributes['pool.name'] === 'bcrypt'));
  t.is(pool.traceId, edge.traceId);
  t.is(pool.name, 'pool bcrypt');
});
