// Exact bot work (decisions.md "Bots and platform records"; README "Decisions"): each collected item
// is recorded once with its outbox entry, so `added` counts only items never collected before, even
// while the first pass's items are still on their way to the schedule writer; a long sync-all shows
// its progress in the bot list and survives a client that disconnects; the group's own names
// (GROUP_NAMES, with a default) link every current member.
//
// The service runs the edge and bots roles without the actors: nothing leaves the outbox, so every
// item a pass handed over is still "in flight" when the next pass runs.
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS } from '../shared/bus/topics.ts';
import { ConfigError, DEFAULT_GROUP_NAMES, loadConfig } from '../shared/runtime/config.ts';
import { startFakeVideoPlatform, type FakeVideo, type FakeVideoPlatform } from './fakes/video-platform.ts';
import { insertMember } from './helpers/factory.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';
import { waitFor } from './helpers/wait.ts';

const API_KEY = 'AIzaExactBotsKey-0123456789';
const CHANNEL = 'UCexactchannel0000000000';
const LONG_CHANNEL = 'UClongchannel00000000000';

let fake: FakeVideoPlatform;
let service: TestService;
let token: string;
let configDir: string;
let members: number[];

const db = () => service.running.services.db;
const api = (method: string, path: string) => call(service.url, method, path, { token });
const bot = async (id: string) => ((await api('GET', '/api/admin/bots/')).body as Array<Record<string, any>>).find((b) => b.id === id)!;

function uploads(prefix: string, count: number): FakeVideo[] {
  return Array.from({ length: count }, (_, i) => ({
    videoId: `${prefix}${String(i).padStart(11 - prefix.length, '0')}`,
    title: i % 2 === 0 ? `루미네 무대 ${i}` : `하리니 브이로그 ${i}`,
    publishedAt: new Date(Date.UTC(2026, 2, 1) + i * 3_600_000).toISOString(),
  }));
}

/** Outbox entries for the schedule writer, per video id. */
const handedOver = async (channelId: string) =>
  db().one<{ entries: number; videos: number }>(
    `SELECT count(*)::int AS entries, count(DISTINCT key)::int AS videos FROM outbox WHERE topic = $1 AND payload->>'channelId' = $2`,
    [TOPICS.videoCollected, channelId],
  );

test.before(async () => {
  fake = await startFakeVideoPlatform({ apiKey: API_KEY });
  configDir = await mkdtemp(join(tmpdir(), 'bots-exact-test-'));
  const botsFile = join(configDir, 'bots.json');
  // No groupNames in the bots' own config: the group's name comes from GROUP_NAMES' default.
  await writeFile(botsFile, JSON.stringify([
    { id: 'exact', name: '정확한 봇', type: 'video', intervalMinutes: 60, config: { channelId: CHANNEL, channelName: '루미네 채널' } },
    { id: 'long', name: '긴 채널 봇', type: 'video', intervalMinutes: 60, config: { channelId: LONG_CHANNEL, channelName: '긴 채널' } },
  ]));
  fake.setChannel(CHANNEL, uploads('exa', 60));
  fake.setChannel(LONG_CHANNEL, uploads('lng', 150));
  service = await startTestService({ ROLE: 'edge,bots', BOTS_CONFIG: botsFile, VIDEO_API_URL: fake.url, VIDEO_API_KEY: API_KEY });
  token = await adminToken(service.url);
  members = [
    (await insertMember(db(), { name: '윤하린', nicknames: ['하리니'] })).id,
    (await insertMember(db(), { name: '강서아' })).id,
    (await insertMember(db(), { name: '정유나' })).id,
  ];
  await insertMember(db(), { name: '백다온', isFormer: true });
});

test.after.always(async () => {
  await service?.stop();
  await fake?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

test.serial('an immediate second sync-all reports 0 added while the first one’s items are still on their way to the writer', async (t) => {
  t.deepEqual((await api('POST', '/api/admin/bots/exact/sync-all')).body, { success: true, added: 60, total: 60 });
  t.deepEqual(await handedOver(CHANNEL), { entries: 60, videos: 60 }, 'each video handed over once');
  const written = await db().one<{ n: number }>('SELECT count(*)::int AS n FROM video_schedules');
  t.is(written.n, 0, 'no actors here: nothing has reached the schedule writer yet');

  t.deepEqual((await api('POST', '/api/admin/bots/exact/sync-all')).body, { success: true, added: 0, total: 60 });
  t.deepEqual(await handedOver(CHANNEL), { entries: 60, videos: 60 }, 'nothing handed over twice');
  t.like(await bot('exact'), { lastAddedCount: 0, progress: null });

  // A new upload is the only thing the next pass adds.
  fake.setChannel(CHANNEL, uploads('exa', 61));
  t.deepEqual((await api('POST', '/api/admin/bots/exact/sync-all')).body, { success: true, added: 1, total: 61 });
  t.deepEqual(await handedOver(CHANNEL), { entries: 61, videos: 61 });
});

test.serial('the group’s name links every current member without a per-bot list (GROUP_NAMES default)', async (t) => {
  const memberIds = async (videoId: string) =>
    (await db().one<{ ids: number[] }>("SELECT ARRAY(SELECT jsonb_array_elements_text(payload->'memberIds')::int ORDER BY 1) AS ids FROM outbox WHERE key = $1", [videoId])).ids;
  t.deepEqual(await memberIds('exa00000000'), [...members].sort((a, b) => a - b), '루미네 in the title: every current member, not the former one');
  t.deepEqual(await memberIds('exa00000001'), [members[0]!], 'a nickname: that member only');

  t.deepEqual(loadConfig({}).groupNames, DEFAULT_GROUP_NAMES);
  t.deepEqual(loadConfig({ GROUP_NAMES: ' 별빛 , STARLIGHT,별빛 ' }).groupNames, ['별빛', 'STARLIGHT']);
  const error = t.throws(() => loadConfig({ GROUP_NAMES: ' , ' }), { instanceOf: ConfigError });
  t.is(error?.variable, 'GROUP_NAMES');
});

test.serial('a long sync-all shows its progress in the bot list, and a client that disconnects does not stop it', async (t) => {
  for (let i = 0; i < 6; i++) fake.delayNext(500); // 3 pages and 3 details calls, half a second each
  const client = new AbortController();
  const request = fetch(`${service.url}/api/admin/bots/long/sync-all`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, signal: client.signal }).catch(
    (error: unknown) => error,
  );
  const listing = await waitFor('progress while listing', async () => {
    const progress = (await bot('long')).progress;
    return progress?.phase === 'listing' && progress.pages >= 1 ? progress : null;
  });
  t.log('progress while listing:', JSON.stringify(listing));
  t.true(listing.seen >= 50 && listing.added === 0);
  const collecting = await waitFor('progress while collecting', async () => {
    const progress = (await bot('long')).progress;
    return progress?.phase === 'collecting' ? progress : null;
  });
  t.log('progress while collecting:', JSON.stringify(collecting));
  t.like(collecting, { pages: 3, seen: 150 });
  t.true(collecting.added >= 50 && collecting.added < 150, 'part of the videos handed over');

  client.abort(); // the client gives up before the answer
  t.true((await request) instanceof Error, 'the client saw its request aborted');
  const done = await waitFor('the pass to finish without its client', async () => {
    const current = await bot('long');
    return current.lastCheckAt && current.progress === null ? current : null;
  });
  t.like(done, { lastAddedCount: 150, errorMessage: null });
  t.deepEqual(await handedOver(LONG_CHANNEL), { entries: 150, videos: 150 });
  t.deepEqual((await api('POST', '/api/admin/bots/long/sync-all')).body, { success: true, added: 0, total: 150 });
});
