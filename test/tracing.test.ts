// Traces: with OTEL_EXPORTER_OTLP_ENDPOINT set, the service exports OTLP/HTTP spans, and
// one admin create is one trace from the edge through the outbox relay to the bus consumers. The
// collector is a plain node:http server in this process that decodes the OTLP JSON payloads.
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { tracing } from '../shared/runtime/tracing.ts';
import { SCHEDULE_WRITER_GROUP } from '../workers/actors/schedule-writer.ts';
import { SEARCH_INDEXER_GROUP } from '../workers/actors/search-indexer.ts';
import { startFakeVideoPlatform, type FakeVideoPlatform } from './fakes/video-platform.ts';
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
let videoPlatform: FakeVideoPlatform;
let configDir: string;

const API_KEY = 'AIzaTracingTestKey-0123456789';
const CHANNEL = 'UCtracingchannel0000000a';

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
  // One video bot against the local fake of the video platform.
  videoPlatform = await startFakeVideoPlatform({ apiKey: API_KEY });
  videoPlatform.setChannel(CHANNEL, [{ videoId: 'trace000001', title: '추적 영상', publishedAt: '2026-03-02T03:00:00Z' }], { title: '추적 채널' });
  configDir = await mkdtemp(join(tmpdir(), 'tracing-test-'));
  const bots = [{ id: 'traced-channel', name: '추적 채널', type: 'video', intervalMinutes: 60, config: { channelId: CHANNEL, channelName: '추적 채널', titleFilter: { include: [], exclude: [] }, defaultMemberIds: [], extractMembers: false } }];
  await writeFile(join(configDir, 'bots.json'), JSON.stringify(bots));
  service = await startTestService({
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_SERVICE_NAME: 'schedule-test',
    BOTS_CONFIG: join(configDir, 'bots.json'),
    VIDEO_API_URL: videoPlatform.url,
    VIDEO_API_KEY: API_KEY,
  });
});

test.after.always(async () => {
  await service?.stop();
  await videoPlatform?.close();
  collector?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
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

test('a bot pass is one trace: the pass → the schedule writer → the outbox relay → the search indexer', async (t) => {
  const token = await adminToken(service.url);
  t.is((await call(service.url, 'POST', '/api/admin/bots/traced-channel/start', { token })).status, 200);
  const pass = await waitFor('the bot pass span', () => received.find((s) => s.name === 'bot pass traced-channel'));
  t.is(pass.parentSpanId, '', 'the runner\'s pass starts its own trace');
  const inTrace = (s: ReceivedSpan) => s.traceId === pass.traceId;
  const writer = await waitFor('the schedule writer span', () =>
    received.find((s) => inTrace(s) && s.kind === CONSUMER && s.attributes['messaging.consumer.group.name'] === SCHEDULE_WRITER_GROUP),
  );
  t.is(writer.attributes['messaging.destination.name'], 'bot.video.collected');
  const publish = await waitFor('the relay\'s publish span', () => received.find((s) => inTrace(s) && s.kind === PRODUCER && s.parentSpanId === writer.spanId));
  t.is(publish.attributes['messaging.destination.name'], 'schedule.changed', 'the writer\'s outbox entry carried its span');
  const indexer = await waitFor('the indexer span', () =>
    received.find((s) => inTrace(s) && s.kind === CONSUMER && s.parentSpanId === publish.spanId && s.attributes['messaging.consumer.group.name'] === SEARCH_INDEXER_GROUP),
  );
  t.is(indexer.name, 'consume schedule.changed');
});
