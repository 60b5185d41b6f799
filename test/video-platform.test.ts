import test from 'ava';
import type { ExecutionContext } from 'ava';

import {
  QuotaExceededError,
  VideoPlatformClient,
  VideoPlatformError,
  conventionalUploadsPlaylistId,
} from '../shared/video/platform-client.ts';
import { extractVideoId } from '../shared/video/video-url.ts';
import {
  extractMemberIds,
  nextQuotaResetAt,
  parseIsoDuration,
  passesTitleFilter,
  seoulDateTime,
  videoType,
} from '../shared/video/video-rules.ts';
import type { MemberNames } from '../shared/video/video-rules.ts';
import { startFakeVideoPlatform } from './fakes/video-platform.ts';
import type { FakeVideo, FakeVideoPlatform } from './fakes/video-platform.ts';

const API_KEY = 'AIzaTestKey-0123456789abcdef';
const CHANNEL_ID = 'UCabcdefghijklmnopqrstuv';
const UPLOADS_ID = 'UUabcdefghijklmnopqrstuv';

// Each test gets its own fake: failNext and quota state must not leak between concurrent tests.
async function platform(t: ExecutionContext, options: { fetchTimeoutMs?: number } = {}) {
  const fake = await startFakeVideoPlatform({ apiKey: API_KEY });
  t.teardown(() => fake.close());
  const client = new VideoPlatformClient({ baseUrl: fake.url, apiKey: API_KEY, fetchTimeoutMs: options.fetchTimeoutMs ?? 5_000 });
  return { fake, client };
}

/** `count` videos with 11-character ids, one hour apart, the last one newest. */
function videos(count: number, overrides: (index: number) => Partial<FakeVideo> = () => ({})): FakeVideo[] {
  const start = Date.parse('2024-01-01T00:00:00Z');
  return Array.from({ length: count }, (_, index) => ({
    videoId: `vid${String(index).padStart(8, '0')}`,
    title: `영상 ${index}`,
    publishedAt: new Date(start + index * 3_600_000).toISOString(),
    ...overrides(index),
  }));
}

const endpointCalls = (fake: FakeVideoPlatform, endpoint: string) => fake.requests.filter((r) => r.endpoint === endpoint);

// ---- client against the fake ------------------------------------------------------------

test('uploadsPlaylistId asks channels.list for contentDetails with the key (1 unit)', async (t) => {
  const { fake, client } = await platform(t);
  fake.setChannel(CHANNEL_ID, videos(1));
  t.is(await client.uploadsPlaylistId(CHANNEL_ID), UPLOADS_ID);
  t.deepEqual(fake.requests.map((r) => [r.endpoint, r.params.part, r.params.id, r.params.key]), [
    ['channels', 'contentDetails', CHANNEL_ID, API_KEY],
  ]);
  t.is(fake.quotaUsed, 1);
});

test('uploadsPlaylistId with lookup false uses the UC→UU convention without a call', async (t) => {
  const { fake, client } = await platform(t);
  t.is(await client.uploadsPlaylistId(CHANNEL_ID, { lookup: false }), UPLOADS_ID);
  t.is(fake.requests.length, 0);
  t.is(conventionalUploadsPlaylistId('UCshort'), null);
});

test('uploadsPlaylistId of a channel the platform does not know gives 404', async (t) => {
  const { client } = await platform(t);
  const error = await t.throwsAsync(client.uploadsPlaylistId('UCzzzzzzzzzzzzzzzzzzzzzz'), { instanceOf: VideoPlatformError });
  t.is(error?.status, 404);
});

test('listPlaylistItems pages through uploads newest first with opaque page tokens', async (t) => {
  const { fake, client } = await platform(t);
  fake.setChannel(CHANNEL_ID, videos(12), { title: 'fromis_9' });

  const seen: string[] = [];
  const tokens: (string | undefined)[] = [];
  let pageToken: string | undefined;
  let pages = 0;
  do {
    const page = await client.listPlaylistItems(UPLOADS_ID, pageToken, 5);
    pages += 1;
    seen.push(...page.items.map((item) => item.videoId));
    tokens.push(page.nextPageToken);
    pageToken = page.nextPageToken;
  } while (pageToken !== undefined && pages < 10);

  t.is(pages, 3);
  t.deepEqual(seen, videos(12).map((v) => v.videoId).reverse());
  t.is(tokens[2], undefined);
  const calls = endpointCalls(fake, 'playlistItems');
  t.deepEqual(calls.map((r) => r.params.pageToken), [undefined, tokens[0], tokens[1]]);
  for (const call of calls) {
    t.is(call.params.part, 'snippet,contentDetails');
    t.is(call.params.playlistId, UPLOADS_ID);
    t.is(call.params.maxResults, '5');
  }
  t.is(fake.quotaUsed, 3);
});

test('listPlaylistItems maps snippet and contentDetails into the item shape', async (t) => {
  const { fake, client } = await platform(t);
  fake.setChannel(CHANNEL_ID, [{ videoId: 'dQw4w9WgXcQ', title: '[MV] 하영 - Talk & Talk', publishedAt: '2024-03-01T09:00:00Z' }], {
    title: 'fromis_9',
  });
  const page = await client.listPlaylistItems(UPLOADS_ID);
  t.deepEqual(page, {
    items: [
      {
        videoId: 'dQw4w9WgXcQ',
        title: '[MV] 하영 - Talk & Talk',
        publishedAt: '2024-03-01T09:00:00Z',
        channelId: CHANNEL_ID,
        channelTitle: 'fromis_9',
        thumbnailUrl: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/maxresdefault.jpg',
      },
    ],
  });
});

test('listPlaylistItems asks for 50 a page by default and leaves out private entries', async (t) => {
  const { fake, client } = await platform(t);
  fake.setChannel(CHANNEL_ID, videos(60, (i) => (i === 59 ? { privacyStatus: 'private' } : {})));
  const page = await client.listPlaylistItems(UPLOADS_ID);
  t.is(fake.requests[0]?.params.maxResults, '50');
  t.is(page.items.length, 49);
  t.false(page.items.some((item) => item.videoId === 'vid00000059'));
  t.is(typeof page.nextPageToken, 'string');
});

test('a page token from another playlist is refused by the platform', async (t) => {
  const { fake, client } = await platform(t);
  fake.setChannel(CHANNEL_ID, videos(12));
  fake.setChannel('UCbbbbbbbbbbbbbbbbbbbbbb', videos(12));
  const first = await client.listPlaylistItems(UPLOADS_ID, undefined, 5);
  const error = await t.throwsAsync(client.listPlaylistItems('UUbbbbbbbbbbbbbbbbbbbbbb', first.nextPageToken, 5), {
    instanceOf: VideoPlatformError,
  });
  t.is(error?.status, 400);
  t.is(error?.reason, 'invalidPageToken');
});

test('getVideos batches 120 ids into three videos.list calls of at most 50', async (t) => {
  const { fake, client } = await platform(t);
  const all = videos(120, (i) => ({ duration: `PT${i + 1}S` }));
  fake.setChannel(CHANNEL_ID, all);
  const ids = all.map((v) => v.videoId);

  const details = await client.getVideos(ids);

  const calls = endpointCalls(fake, 'videos');
  t.deepEqual(calls.map((r) => r.params.id?.split(',').length), [50, 50, 20]);
  t.deepEqual(calls.flatMap((r) => r.params.id?.split(',') ?? []), ids);
  for (const call of calls) t.is(call.params.part, 'snippet,contentDetails');
  t.deepEqual(details.map((d) => d.videoId), ids);
  t.deepEqual(details.map((d) => d.durationSeconds), all.map((_, i) => i + 1));
  t.is(fake.quotaUsed, 3);
});

test('getVideos maps videos.list into details and leaves out ids the platform does not return', async (t) => {
  const { fake, client } = await platform(t);
  fake.setChannel(
    CHANNEL_ID,
    [
      { videoId: 'aaaaaaaaaaa', title: '라이브', publishedAt: '2024-05-01T11:00:00Z', duration: 'P0D', liveBroadcastContent: 'upcoming', description: '곧 시작' },
      { videoId: 'bbbbbbbbbbb', title: '비공개', publishedAt: '2024-05-01T12:00:00Z', privacyStatus: 'private' },
    ],
    { title: 'fromis_9' },
  );
  const details = await client.getVideos(['aaaaaaaaaaa', 'bbbbbbbbbbb', 'ccccccccccc', 'aaaaaaaaaaa']);
  t.deepEqual(details, [
    {
      videoId: 'aaaaaaaaaaa',
      title: '라이브',
      description: '곧 시작',
      channelId: CHANNEL_ID,
      channelTitle: 'fromis_9',
      publishedAt: '2024-05-01T11:00:00Z',
      durationSeconds: 0,
      thumbnailUrl: 'https://i.ytimg.com/vi/aaaaaaaaaaa/maxresdefault.jpg',
      liveBroadcastContent: 'upcoming',
    },
  ]);
  t.deepEqual(endpointCalls(fake, 'videos').map((r) => r.params.id), ['aaaaaaaaaaa,bbbbbbbbbbb,ccccccccccc']);
});

test('getVideos of no ids makes no call', async (t) => {
  const { fake, client } = await platform(t);
  t.deepEqual(await client.getVideos([]), []);
  t.is(fake.requests.length, 0);
});

test('quotaExceeded from the platform becomes QuotaExceededError', async (t) => {
  const { fake, client } = await platform(t);
  fake.setChannel(CHANNEL_ID, videos(3));
  fake.setQuotaExceeded(true);
  const error = await t.throwsAsync(client.listPlaylistItems(UPLOADS_ID), { instanceOf: QuotaExceededError });
  t.is(error?.status, 403);
  t.is(error?.reason, 'quotaExceeded');
  t.is(fake.quotaUsed, 0);

  fake.setQuotaExceeded(false);
  t.is((await client.listPlaylistItems(UPLOADS_ID)).items.length, 3);
});

test('a daily quota running out mid-pagination gives QuotaExceededError on the next call', async (t) => {
  const fake = await startFakeVideoPlatform({ dailyQuota: 2 });
  t.teardown(() => fake.close());
  const client = new VideoPlatformClient({ baseUrl: fake.url, apiKey: API_KEY, fetchTimeoutMs: 5_000 });
  fake.setChannel(CHANNEL_ID, videos(12));
  const first = await client.listPlaylistItems(UPLOADS_ID, undefined, 5);
  const second = await client.listPlaylistItems(UPLOADS_ID, first.nextPageToken, 5);
  await t.throwsAsync(client.listPlaylistItems(UPLOADS_ID, second.nextPageToken, 5), { instanceOf: QuotaExceededError });
  t.is(fake.quotaUsed, 2);
});

test('a 503 from the platform is a VideoPlatformError with its message and without the key', async (t) => {
  const { fake, client } = await platform(t);
  fake.setChannel(CHANNEL_ID, videos(3));
  fake.failNext(503);
  const error = await t.throwsAsync(client.listPlaylistItems(UPLOADS_ID), { instanceOf: VideoPlatformError });
  t.false(error instanceof QuotaExceededError);
  t.is(error?.status, 503);
  t.is(error?.reason, 'backendError');
  t.regex(error?.message ?? '', /Backend Error/);
  t.false(error?.message.includes(API_KEY));
  t.false(String(error?.stack).includes(API_KEY));
});

test('a platform message is shown without markup and with the key masked', async (t) => {
  const { fake, client } = await platform(t);
  fake.failNext(400, 'badRequest', `Invalid request for key=${API_KEY}: see <a href="/docs">the docs</a>.`);
  const error = await t.throwsAsync(client.getVideos(['aaaaaaaaaaa']), { instanceOf: VideoPlatformError });
  t.is(error?.status, 400);
  t.regex(error?.message ?? '', /HTTP 400\): Invalid request for key=\*\*\*: see the docs\.$/);
  t.false(error?.message.includes(API_KEY));
});

test('a 403 that is not about quota stays a plain VideoPlatformError', async (t) => {
  const { fake, client } = await platform(t);
  fake.failNext(403, 'forbidden');
  const error = await t.throwsAsync(client.getVideos(['aaaaaaaaaaa']), { instanceOf: VideoPlatformError });
  t.false(error instanceof QuotaExceededError);
  t.is(error?.status, 403);
});

test('a wrong API key gives 400 keyInvalid and the message does not repeat the key', async (t) => {
  const fake = await startFakeVideoPlatform({ apiKey: API_KEY });
  t.teardown(() => fake.close());
  const wrongKey = 'AIzaWrongKey-should-not-leak';
  const client = new VideoPlatformClient({ baseUrl: fake.url, apiKey: wrongKey });
  const error = await t.throwsAsync(client.uploadsPlaylistId(CHANNEL_ID), { instanceOf: VideoPlatformError });
  t.is(error?.status, 400);
  t.is(error?.reason, 'keyInvalid');
  t.false(error?.message.includes(wrongKey));
});

test('a platform slower than fetchTimeoutMs gives a timeout error', async (t) => {
  const { fake, client } = await platform(t, { fetchTimeoutMs: 150 });
  fake.setChannel(CHANNEL_ID, videos(1));
  fake.delayNext(2_000);
  const started = Date.now();
  const error = await t.throwsAsync(client.uploadsPlaylistId(CHANNEL_ID), { instanceOf: VideoPlatformError });
  t.is(error?.status, 0);
  t.is(error?.reason, 'timeout');
  t.true(Date.now() - started < 1_500);
});

test('a platform that cannot be reached gives a network error without the key', async (t) => {
  const fake = await startFakeVideoPlatform();
  const url = fake.url;
  await fake.close();
  const client = new VideoPlatformClient({ baseUrl: url, apiKey: API_KEY, fetchTimeoutMs: 2_000 });
  const error = await t.throwsAsync(client.getVideos(['aaaaaaaaaaa']), { instanceOf: VideoPlatformError });
  t.is(error?.status, 0);
  t.is(error?.reason, 'network');
  t.false(error?.message.includes(API_KEY));
});

// ---- the fake itself speaks the wire format ---------------------------------------------

test('fake: a request without key gets the 400 keyInvalid body and costs nothing', async (t) => {
  const fake = await startFakeVideoPlatform();
  t.teardown(() => fake.close());
  const response = await fetch(`${fake.url}/videos?part=snippet&id=aaaaaaaaaaa`);
  t.is(response.status, 400);
  const body = (await response.json()) as { error: { code: number; errors: { reason: string; domain: string }[] } };
  t.is(body.error.code, 400);
  t.deepEqual(body.error.errors.map((e) => [e.domain, e.reason]), [['usageLimits', 'keyInvalid']]);
  t.is(fake.quotaUsed, 0);
});

test('fake: playlistItems.list has the platform shape, 5 a page by default, and refuses maxResults over 50', async (t) => {
  const fake = await startFakeVideoPlatform();
  t.teardown(() => fake.close());
  fake.setChannel(CHANNEL_ID, videos(7));
  const response = await fetch(`${fake.url}/playlistItems?part=snippet,contentDetails&playlistId=${UPLOADS_ID}&key=k`);
  const body = (await response.json()) as Record<string, any>;
  t.is(body.kind, 'youtube#playlistItemListResponse');
  t.is(typeof body.etag, 'string');
  t.deepEqual(body.pageInfo, { totalResults: 7, resultsPerPage: 5 });
  t.is(body.items.length, 5);
  t.is(typeof body.nextPageToken, 'string');
  t.is(body.prevPageToken, undefined);
  t.is(body.items[0].snippet.resourceId.videoId, 'vid00000006');
  t.is(body.items[0].contentDetails.videoPublishedAt, videos(7)[6]?.publishedAt);

  const page2 = (await (
    await fetch(`${fake.url}/playlistItems?part=snippet&playlistId=${UPLOADS_ID}&key=k&pageToken=${body.nextPageToken}`)
  ).json()) as Record<string, any>;
  t.is(page2.items.length, 2);
  t.is(typeof page2.prevPageToken, 'string');
  t.is(page2.items[0].contentDetails, undefined);

  const tooMany = await fetch(`${fake.url}/playlistItems?part=snippet&playlistId=${UPLOADS_ID}&key=k&maxResults=51`);
  t.is(tooMany.status, 400);
  t.is(fake.quotaUsed, 3);
});

// ---- video-url ---------------------------------------------------------------------------

test('extractVideoId accepts every URL form of the platform and a bare id', (t) => {
  const id = 'dQw4w9WgXcQ';
  const valid = [
    `https://www.youtube.com/watch?v=${id}`,
    `https://www.youtube.com/watch?v=${id}&list=PL123&t=42s`,
    `https://www.youtube.com/watch?feature=share&v=${id}`,
    `https://m.youtube.com/watch?v=${id}`,
    `https://music.youtube.com/watch?v=${id}&si=abc`,
    `https://youtube.com/watch?v=${id}`,
    `http://www.youtube.com/watch?v=${id}`,
    `www.youtube.com/watch?v=${id}`,
    `youtube.com/watch?v=${id}`,
    `m.youtube.com/watch?v=${id}`,
    `https://www.youtube.com/shorts/${id}`,
    `https://youtube.com/shorts/${id}?si=xyz`,
    `https://youtu.be/${id}`,
    `https://youtu.be/${id}?si=xyz&t=10`,
    `youtu.be/${id}`,
    `https://www.youtube.com/live/${id}`,
    `https://www.youtube.com/live/${id}?feature=share`,
    `https://www.youtube.com/embed/${id}`,
    `https://www.youtube-nocookie.com/embed/${id}`,
    `HTTPS://WWW.YOUTUBE.COM/watch?v=${id}`,
    `  https://youtu.be/${id}  `,
    id,
    'a_b-C1234-_',
  ];
  for (const input of valid) t.is(extractVideoId(input), input.trim().length === 11 ? input.trim() : id, input);
});

test('extractVideoId refuses other hosts, schemes, shapes and overlong input', (t) => {
  const id = 'dQw4w9WgXcQ';
  const invalid = [
    '',
    '   ',
    'dQw4w9WgXc',
    'dQw4w9WgXcQQ',
    'dQw4w9WgXc!',
    'dQw4w9WgXc Q',
    `https://www.youtube.com/watch?v=${id}Q`,
    `https://www.youtube.com/watch?v=short`,
    `https://www.youtube.com/watch?list=${id}`,
    `https://www.youtube.com/shorts/${id}/extra`,
    `https://www.youtube.com/channel/${id}`,
    `https://www.youtube.com/${id}`,
    `https://vimeo.com/${id}`,
    `https://youtube.com.evil.example/watch?v=${id}`,
    `https://evil.example/watch?v=${id}`,
    `https://www.youtube.com@evil.example/watch?v=${id}`,
    `https://user:pass@www.youtube.com/watch?v=${id}`,
    `https://www.youtube.com:8443/watch?v=${id}`,
    `https://evil.example/?u=youtu.be/${id}`,
    `javascript:alert('${id}')`,
    `file:///etc/passwd?v=${id}`,
    `ftp://www.youtube.com/watch?v=${id}`,
    `data:text/html,https://youtu.be/${id}`,
    `https://youtu.be/${id}/more`,
    `https://youtu.be/`,
    `https://www.youtube.com/watch?v=${id}&${'x'.repeat(3000)}`,
  ];
  for (const input of invalid) t.is(extractVideoId(input), null, input.slice(0, 80));
});

// ---- video-rules ---------------------------------------------------------------------------

test('parseIsoDuration reads days, hours, minutes and seconds and refuses malformed text', (t) => {
  const table: [string, number | null][] = [
    ['PT1M5S', 65],
    ['PT15S', 15],
    ['PT10M', 600],
    ['PT1H', 3600],
    ['PT1H2M3S', 3723],
    ['PT2H0M1S', 7201],
    ['P1DT1S', 86401],
    ['P2D', 172800],
    ['P0D', 0],
    ['PT0S', 0],
    ['', null],
    ['P', null],
    ['PT', null],
    ['P1DT', null],
    ['1M5S', null],
    ['PT1M5', null],
    ['PTM', null],
    ['PT-1S', null],
    ['P1Y', null],
    ['PT1S junk', null],
  ];
  for (const [input, expected] of table) t.is(parseIsoDuration(input), expected, input);
});

test('videoType: under 61 s is a short, 61 s is a video, #shorts marks a short', (t) => {
  t.is(videoType({ durationSeconds: 60 }), 'shorts');
  t.is(videoType({ durationSeconds: 15 }), 'shorts');
  t.is(videoType({ durationSeconds: 61 }), 'video');
  t.is(videoType({ durationSeconds: 600, title: '하영 챌린지 #Shorts' }), 'shorts');
  t.is(videoType({ durationSeconds: 600, title: '챌린지', description: '프로미스나인 #shorts #fromis_9' }), 'shorts');
  t.is(videoType({ durationSeconds: 600, title: '#shortsfilm 비하인드' }), 'video');
  t.is(videoType({ durationSeconds: 600, title: 'shorts 모음' }), 'video');
  // Live and upcoming broadcasts report P0D: unknown length, not a short.
  t.is(videoType({ durationSeconds: 0, title: '라이브' }), 'video');
  t.is(videoType({ durationSeconds: null }), 'video');
});

test('seoulDateTime gives the Seoul calendar date across midnight UTC', (t) => {
  t.deepEqual(seoulDateTime('2024-05-01T14:59:00Z'), { date: '2024-05-01', time: '23:59' });
  t.deepEqual(seoulDateTime('2024-05-01T15:00:00Z'), { date: '2024-05-02', time: '00:00' });
  t.deepEqual(seoulDateTime('2024-05-01T15:30:59Z'), { date: '2024-05-02', time: '00:30' });
  t.deepEqual(seoulDateTime('2023-12-31T15:00:00Z'), { date: '2024-01-01', time: '00:00' });
  t.deepEqual(seoulDateTime('2024-05-02T00:30:00+09:00'), { date: '2024-05-02', time: '00:30' });
  t.deepEqual(seoulDateTime(new Date('2024-02-29T03:05:00Z')), { date: '2024-02-29', time: '12:05' });
  t.throws(() => seoulDateTime('not a date'), { instanceOf: RangeError });
});

test('nextQuotaResetAt is the next midnight in Los Angeles, across DST changes', (t) => {
  const table: [string, string][] = [
    // Day before DST starts: midnight is still PST (UTC-8).
    ['2024-03-09T12:00:00.000Z', '2024-03-10T08:00:00.000Z'],
    // DST started at 02:00 on 10 March: the next midnight is PDT (UTC-7), 23 hours later.
    ['2024-03-10T12:00:00.000Z', '2024-03-11T07:00:00.000Z'],
    ['2024-03-10T08:00:00.000Z', '2024-03-11T07:00:00.000Z'],
    // Day before DST ends: midnight of 3 November is still PDT.
    ['2024-11-02T20:00:00.000Z', '2024-11-03T07:00:00.000Z'],
    // After the fall back at 02:00 PDT on 3 November the next midnight is PST.
    ['2024-11-03T10:00:00.000Z', '2024-11-04T08:00:00.000Z'],
    ['2024-11-03T07:00:00.000Z', '2024-11-04T08:00:00.000Z'],
    // Exactly at midnight the next reset is a day later; a millisecond before, it is now.
    ['2024-06-01T07:00:00.000Z', '2024-06-02T07:00:00.000Z'],
    ['2024-06-01T06:59:59.999Z', '2024-06-01T07:00:00.000Z'],
    ['2024-12-31T20:00:00.000Z', '2025-01-01T08:00:00.000Z'],
  ];
  for (const [now, expected] of table) t.is(nextQuotaResetAt(new Date(now)).toISOString(), expected, now);
});

test('passesTitleFilter: empty include passes all, matching ignores case, exclude wins', (t) => {
  t.true(passesTitleFilter('아무 제목', { include: [], exclude: [] }));
  t.true(passesTitleFilter('[MV] fromis_9 - DM', { include: ['mv'], exclude: [] }));
  t.true(passesTitleFilter('[Teaser] 하영', { include: ['mv', '하영'], exclude: [] }));
  t.false(passesTitleFilter('[Teaser] 지원', { include: ['mv', '하영'], exclude: [] }));
  t.false(passesTitleFilter('[MV] fromis_9 - DM (Reaction)', { include: ['MV'], exclude: ['reaction'] }));
  t.false(passesTitleFilter('광고 영상', { include: [], exclude: ['광고'] }));
  t.true(passesTitleFilter('비하인드', { include: [''], exclude: ['  '] }));
  t.true(passesTitleFilter('하영'.normalize('NFD'), { include: ['하영'], exclude: [] }));
});

const MEMBERS: MemberNames[] = [
  { id: 1, name: '이새롬', nameEn: 'Saerom', nicknames: ['새롬'], isFormer: false },
  { id: 2, name: '송하영', nameEn: 'Hayoung', nicknames: ['하영', '갱얼쥐'], isFormer: false },
  { id: 3, name: '장규리', nameEn: 'Gyuri', nicknames: ['규리'], isFormer: true },
  { id: 4, name: '박지원', nameEn: 'Jiwon', nicknames: ['지원'], isFormer: false },
  { id: 5, name: '백지헌', nameEn: 'Jiheon', nicknames: ['지헌', 'Ha'], isFormer: false },
];
const GROUP_NAMES = ['프로미스나인', 'fromis_9'];

test('extractMemberIds links members by name, English name and nickname', (t) => {
  t.deepEqual(extractMemberIds('[하영] 오늘의 브이로그', MEMBERS, GROUP_NAMES), [2]);
  t.deepEqual(extractMemberIds('박지원, 이새롬 라이브', MEMBERS, GROUP_NAMES), [1, 4]);
  t.deepEqual(extractMemberIds('갱얼쥐 하영이의 하루', MEMBERS, GROUP_NAMES), [2]);
  t.deepEqual(extractMemberIds('JIWON X HAYOUNG dance', MEMBERS, GROUP_NAMES), [2, 4]);
  t.deepEqual(extractMemberIds('지헌 지헌 지헌', MEMBERS, GROUP_NAMES), [5]);
  t.deepEqual(extractMemberIds('하영'.normalize('NFD') + ' 커버', MEMBERS, GROUP_NAMES), [2]);
  // A Latin nickname must not match inside a longer word.
  t.deepEqual(extractMemberIds('Happy birthday', MEMBERS, GROUP_NAMES), []);
  t.deepEqual(extractMemberIds('아무도 없는 제목', MEMBERS, GROUP_NAMES), []);
});

test('extractMemberIds: a group name links every current member, former members only by name', (t) => {
  t.deepEqual(extractMemberIds('프로미스나인 컴백 쇼케이스', MEMBERS, GROUP_NAMES), [1, 2, 4, 5]);
  t.deepEqual(extractMemberIds('[FROMIS_9] Weekly', MEMBERS, GROUP_NAMES), [1, 2, 4, 5]);
  t.deepEqual(extractMemberIds('프로미스나인 규리 특별 출연', MEMBERS, GROUP_NAMES), [1, 2, 3, 4, 5]);
  t.deepEqual(extractMemberIds('규리 단독 인터뷰', MEMBERS, GROUP_NAMES), [3]);
});
