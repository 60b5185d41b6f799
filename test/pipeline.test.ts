// The collection pipeline end to end (ARCHITECTURE.md, "Bus, topics and actors"): a video bot run →
// bot.video.collected → schedule writer → outbox → schedule.changed → search indexer → search. The
// real service in the `all` role on a database that outlives one service, so a restart in the middle
// can be checked for loss and duplication. The bus is the one the service is configured with:
// Kafka when KAFKA_BROKERS is set (passed through to the service), PostgreSQL otherwise; the tests
// look at the bus only through the Bus interface, so the same tests run on either.
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { dlqTopic, TOPICS, type Bus, type BusMessage, type Subscription } from '../shared/bus/bus.ts';
import { createBus } from '../shared/bus/create-bus.ts';
import type { VideoCollected } from '../shared/collected.ts';
import { connectDatabase, type Database } from '../shared/db/database.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { SCHEDULE_WRITER_GROUP } from '../workers/actors/schedule-writer.ts';
import { startFakeVideoPlatform, type FakeVideo, type FakeVideoPlatform } from './fakes/video-platform.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { insertMember } from './helpers/factory.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';
import { waitFor } from './helpers/wait.ts';

const API_KEY = 'AIzaPipelineKey-0123456789';
const CHANNEL = 'UCpipelinechannel0000000';
const WORD = '별빛';

let fake: FakeVideoPlatform;
let database: TestDatabase;
let service: TestService;
let token: string;
let configDir: string;
let env: Record<string, string>;
let harin: number;
/** A bus of the test's own (like another process) that watches the topics through the Bus interface. */
let observer: { database: Database; bus: Bus; subscriptions: Subscription[] };
const collectedSeen: BusMessage[] = [];
const deadLetters: BusMessage[] = [];
const DLQ_GROUP = `pipeline-test-dlq-${randomBytes(3).toString('hex')}`;
const kafkaBrokers = process.env.KAFKA_BROKERS?.split(',').map((broker) => broker.trim()).filter(Boolean) ?? [];
let seoa: number;
let yuna: number;

const db = () => service.running.services.db;
const api = (method: string, path: string) => call(service.url, method, path, { token });

/** Uploads `from`..`to - 1`, an hour apart; every seventh is an advertisement the filter drops. */
function uploads(from: number, to: number): FakeVideo[] {
  const kinds = ['루미네 무대', '하리니 브이로그', '강서아 라디오', '유나비 먹방', '루미네 비하인드', '연습실 직캠', '광고'];
  return Array.from({ length: to - from }, (_, n) => {
    const i = from + n;
    return { videoId: `pip${String(i).padStart(8, '0')}`, title: `${WORD} ${kinds[i % 7]} ${i}`, publishedAt: new Date(Date.UTC(2026, 4, 1) + i * 3_600_000).toISOString() };
  });
}

const searchTotal = async () => (await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent(WORD)}&limit=100`)).body.total as number;
const counts = async () =>
  db().one<{ schedules: number; videos: number; distinct_videos: number }>(
    'SELECT (SELECT count(*)::int FROM schedules) AS schedules, (SELECT count(*)::int FROM video_schedules) AS videos, (SELECT count(DISTINCT video_id)::int FROM video_schedules) AS distinct_videos',
  );
const bot = async () => ((await api('GET', '/api/admin/bots/')).body as Array<Record<string, any>>)[0]!;

test.before(async () => {
  fake = await startFakeVideoPlatform({ apiKey: API_KEY });
  database = await createTestDatabase();
  configDir = await mkdtemp(join(tmpdir(), 'pipeline-test-'));
  const botsFile = join(configDir, 'bots.json');
  await writeFile(botsFile, JSON.stringify([
    {
      id: 'pipeline', name: '별빛 채널 봇', type: 'video', intervalMinutes: 60,
      config: { channelId: CHANNEL, channelName: '별빛 채널', titleFilter: { include: [], exclude: ['광고'] }, defaultMemberIds: [], extractMembers: true, groupNames: ['루미네'] },
    },
  ]));
  env = { BOTS_CONFIG: botsFile, VIDEO_API_URL: fake.url, VIDEO_API_KEY: API_KEY, ...(kafkaBrokers.length > 0 ? { KAFKA_BROKERS: kafkaBrokers.join(',') } : {}) };
  service = await startTestService(env, { database });
  const started = Date.now() - 1_000;
  const observerDatabase = connectDatabase(database.url, createLogger('warn'), 4);
  const observerBus = await createBus({ db: observerDatabase.db, logger: createLogger('warn'), kafkaBrokers: kafkaBrokers.length > 0 ? kafkaBrokers : null, clientId: 'pipeline-test-observer' });
  // Only this run's messages: a broker may keep earlier runs' messages on the same topics.
  const fresh = (message: BusMessage) => message.publishedAt.getTime() >= started;
  observer = {
    database: observerDatabase,
    bus: observerBus,
    subscriptions: [
      await observerBus.subscribe(`pipeline-test-observer-${randomBytes(3).toString('hex')}`, [TOPICS.videoCollected], async (message) => {
        if (fresh(message)) collectedSeen.push(message);
      }, { ephemeral: true }),
      await observerBus.subscribe(DLQ_GROUP, [TOPICS.videoCollected, TOPICS.postCollected, TOPICS.scheduleChanged].map(dlqTopic), async (message) => {
        if (fresh(message)) deadLetters.push(message);
      }, { ephemeral: true }),
    ],
  };
  token = await adminToken(service.url);
  harin = (await insertMember(db(), { name: '윤하린', nicknames: ['하리니'] })).id;
  seoa = (await insertMember(db(), { name: '강서아' })).id;
  yuna = (await insertMember(db(), { name: '정유나', nicknames: ['유나비'] })).id;
});

test.after.always(async () => {
  for (const subscription of observer?.subscriptions ?? []) await subscription.stop();
  await observer?.bus.close();
  await observer?.database.close();
  await service?.stop();
  await database?.drop();
  await fake?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

test.serial('a bot run collects videos; the writer stores them with their members; the indexer makes them searchable', async (t) => {
  t.log(kafkaBrokers.length > 0 ? `bus: Kafka at ${kafkaBrokers.join(',')}` : 'bus: PostgreSQL (KAFKA_BROKERS is not set: the Kafka run of these tests needs a broker)');
  fake.setChannel(CHANNEL, uploads(0, 70));
  const expected = 60; // 70 uploads, every seventh an advertisement
  t.deepEqual((await api('POST', '/api/admin/bots/pipeline/start')).body, { success: true, status: 'running' });
  const ran = await waitFor('the bot pass', async () => {
    const current = await bot();
    return current.lastCheckAt ? current : null;
  });
  t.like(ran, { status: 'running', lastAddedCount: expected, errorMessage: null });
  await waitFor('the search index', async () => (await searchTotal()) === expected);
  t.like(await counts(), { schedules: expected, videos: expected, distinct_videos: expected });

  const page = (await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent(`${WORD} 루미네 무대 0`)}&limit=5`)).body;
  const first = page.schedules.find((item: { title: string }) => item.title === `${WORD} 루미네 무대 0`);
  t.truthy(first, 'found by its title');
  t.deepEqual(first.members.map((m: { id: number }) => m.id).sort(), [harin, seoa, yuna].sort(), 'the group name links every member');
  const vlog = (await call(service.url, 'GET', `/api/schedules/?search=${encodeURIComponent('하리니 브이로그')}&limit=100`)).body;
  t.true(vlog.total >= 10);
  t.true(vlog.schedules.filter((item: { title: string }) => item.title.includes('하리니')).every((item: { members: Array<{ id: number }> }) => item.members.length === 1 && item.members[0]!.id === harin));
  t.like((await bot()), { scheduleCount: expected });
});

test.serial('running it again, and redelivering what was collected, duplicates nothing', async (t) => {
  t.deepEqual((await api('POST', '/api/admin/bots/pipeline/sync-all')).body, { success: true, added: 0, total: 60 });
  // At-least-once delivery: the messages the bot published, delivered a second time, change nothing.
  const bus = service.running.services.bus;
  const before = await db().any('SELECT s.id, s.title, s.date, s.time, array_agg(m.member_id ORDER BY m.member_id) AS members FROM schedules s LEFT JOIN schedule_members m ON m.schedule_id = s.id GROUP BY s.id ORDER BY s.id');
  // What the bot published, as a consumer of the bus saw it.
  await waitFor('the observer to see what the bot published', async () => collectedSeen.length >= 60);
  const published = collectedSeen.slice(0, 10);
  t.true(published.every((message) => (message.value as VideoCollected).videoId === message.key));
  await bus.publishMany(published.map((message) => ({ topic: TOPICS.videoCollected, key: message.key, value: message.value })));
  await waitFor('the writer to drain', async () => Object.values(await bus.lag(SCHEDULE_WRITER_GROUP)).every((lag) => lag === 0));
  t.like(await counts(), { schedules: 60, videos: 60, distinct_videos: 60 });
  t.deepEqual(await db().any('SELECT s.id, s.title, s.date, s.time, array_agg(m.member_id ORDER BY m.member_id) AS members FROM schedules s LEFT JOIN schedule_members m ON m.schedule_id = s.id GROUP BY s.id ORDER BY s.id'), before);
  await waitFor('the index to follow', async () => (await searchTotal()) === 60);
});

test.serial('a restart while the writer and the indexer are still working loses nothing and stores nothing twice', async (t) => {
  fake.setChannel(CHANNEL, uploads(0, 140)); // 70 more uploads, 60 of them kept
  const synced = await api('POST', '/api/admin/bots/pipeline/sync-all');
  t.deepEqual(synced.body, { success: true, added: 60, total: 120 });
  // Stop at once: the writer and the indexer are still working through what was published.
  await service.stop();
  const peek = connectDatabase(database.url, createLogger('warn'), 1);
  const stoppedWith = await peek.db.one<{ n: number }>('SELECT count(*)::int AS n FROM video_schedules').finally(() => peek.close());
  t.log(`schedules stored when the service stopped: ${stoppedWith.n} of 120`);

  service = await startTestService(env, { database });
  token = await adminToken(service.url);
  await waitFor('the second service to finish the work', async () => (await counts()).videos === 120);
  await waitFor('every schedule indexed', async () => {
    const { n } = await db().one<{ n: number }>('SELECT count(*)::int AS n FROM search_documents');
    return n === 120;
  });
  t.like(await counts(), { schedules: 120, videos: 120, distinct_videos: 120 });
  t.is(await searchTotal(), 120);
  await waitFor('the dead-letter watcher to catch up', async () => Object.values(await observer.bus.lag(DLQ_GROUP)).every((lag) => lag === 0));
  t.deepEqual(deadLetters.map((message) => message.id), [], 'nothing dead-lettered');
  t.like(await bot(), { status: 'running', lastAddedCount: 60, scheduleCount: 120 }, 'the bot kept its state across the restart');
  t.deepEqual((await api('POST', '/api/admin/bots/pipeline/sync-all')).body, { success: true, added: 0, total: 120 });
});

test.serial('a restart during a bot pass: the pass is abandoned cleanly and the next runner does it again', async (t) => {
  fake.setChannel(CHANNEL, uploads(0, 210)); // 70 more uploads, 60 of them kept
  for (let i = 0; i < 4; i++) fake.delayNext(400); // a slow platform: the pass takes seconds
  t.deepEqual((await api('POST', '/api/admin/bots/pipeline/start')).body, { success: true, status: 'running' }); // due now
  await new Promise((resolve) => setTimeout(resolve, 200)); // the runner is waiting for its first page
  await service.stop();
  const peek = connectDatabase(database.url, createLogger('warn'), 1);
  const stoppedWith = await peek.db.one<{ n: number }>('SELECT count(*)::int AS n FROM video_schedules').finally(() => peek.close());
  t.is(stoppedWith.n, 120, 'the abandoned pass published nothing');

  service = await startTestService(env, { database });
  token = await adminToken(service.url);
  await waitFor('the next runner to do the pass', async () => {
    const current = await bot();
    return current.lastAddedCount === 60 ? current : null;
  });
  await waitFor('every schedule indexed', async () => {
    const { n } = await db().one<{ n: number }>('SELECT count(*)::int AS n FROM search_documents');
    return n === 180;
  });
  t.like(await counts(), { schedules: 180, videos: 180, distinct_videos: 180 });
  t.like(await bot(), { status: 'running', errorMessage: null, scheduleCount: 180 });
});
