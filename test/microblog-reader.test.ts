// Microblog bot's reader (decisions.md, "Bots and platform records"): posts read through a
// Nitter-style mirror in real headless Chromium, against a fake mirror on 127.0.0.1.

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { CircuitBreaker, CircuitOpenError } from '../shared/runtime/circuit-breaker.ts';
import { parsePostUrl, toSeoulDateTime } from '../shared/microblog/post-url.ts';
import {
  BrowserNotFoundError,
  CHROMIUM_INSTALL_HINT,
  assertChromiumExists,
  closeBrowser,
  getBrowser,
  openPageCount,
  withPage,
} from '../workers/bots/browser.ts';
import { resolveChromium } from '../workers/bots/chromium-executable.ts';
import {
  MicroblogReadError,
  MicroblogReader,
  mirrorImageToOriginal,
  nextTimelineUrl,
  parseMirrorTime,
  snowflakeTime,
} from '../workers/bots/microblog-reader.ts';
import { snowflakeFor, startFakeMirror } from './fakes/microblog-mirror.ts';
import type { FakeMirror, FakePost } from './fakes/microblog-mirror.ts';

// CHROMIUM_PATH when set, else what the bots would use: a chromium on PATH, else the npm one.
let CHROMIUM = '';
let chromiumSource = '';
const chromiumProblem: string | null = await resolveChromium({ configured: process.env.CHROMIUM_PATH }).then(
  (found) => {
    CHROMIUM = found.executablePath;
    chromiumSource = found.source;
    return null;
  },
  (error: Error) => error.message,
);

// ---------------------------------------------------------------------------------------
// Pure parts
// ---------------------------------------------------------------------------------------

function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const boom = () => Promise.reject(new Error('mirror down'));

test('circuit breaker: opens after the threshold of consecutive failures and refuses calls', async (t) => {
  const clock = manualClock();
  const breaker = new CircuitBreaker({ failureThreshold: 3, resetAfterMs: 10_000, now: clock.now });
  t.is(breaker.state, 'closed');
  await t.throwsAsync(breaker.run(boom), { message: 'mirror down' });
  await t.throwsAsync(breaker.run(boom));
  t.is(await breaker.run(async () => 'ok'), 'ok', 'a success resets the count');
  for (let i = 0; i < 3; i += 1) await t.throwsAsync(breaker.run(boom), { message: 'mirror down' });
  t.is(breaker.state, 'open');

  let called = false;
  const refused = await t.throwsAsync(
    breaker.run(async () => {
      called = true;
    }),
    { instanceOf: CircuitOpenError },
  );
  t.false(called);
  t.is(refused.status, 503);
  t.is(refused.retryAfterMs, 10_000);
  t.regex(refused.message, /10초 후/);
});

test('circuit breaker: half-open after the reset time; a good trial closes, a bad one reopens', async (t) => {
  const clock = manualClock();
  const breaker = new CircuitBreaker({ failureThreshold: 1, resetAfterMs: 5_000, now: clock.now });
  await t.throwsAsync(breaker.run(boom));
  clock.advance(4_999);
  t.is(breaker.state, 'open');
  clock.advance(1);
  t.is(breaker.state, 'half-open');

  await t.throwsAsync(breaker.run(boom), { message: 'mirror down' });
  t.is(breaker.state, 'open', 'a failed trial opens it for another period');
  clock.advance(5_000);

  // Only one trial at a time while half-open.
  let release!: () => void;
  const trial = breaker.run(() => new Promise<string>((resolve) => (release = () => resolve('ok'))));
  await t.throwsAsync(breaker.run(async () => 'second'), { instanceOf: CircuitOpenError });
  release();
  t.is(await trial, 'ok');
  t.is(breaker.state, 'closed');
  t.is(breaker.consecutiveFailures, 0);
});

test('circuit breaker: errors that isFailure excludes do not count', async (t) => {
  const breaker = new CircuitBreaker({
    failureThreshold: 1,
    resetAfterMs: 1_000,
    isFailure: (error) => !(error instanceof RangeError),
  });
  await t.throwsAsync(breaker.run(() => Promise.reject(new RangeError('not found'))));
  t.is(breaker.state, 'closed');
  t.throws(() => new CircuitBreaker({ failureThreshold: 0, resetAfterMs: 1 }), { instanceOf: RangeError });
});

const MIRROR = 'https://nitter.example:8443';

const validUrls: [string, string, string][] = [
  ['https://x.com/group_official/status/1859412345678901234', 'group_official', '1859412345678901234'],
  ['https://twitter.com/Group/status/20', 'Group', '20'],
  ['https://www.twitter.com/Group/status/20', 'Group', '20'],
  ['https://mobile.twitter.com/Group/status/20?s=20&t=abc', 'Group', '20'],
  ['https://www.x.com/Group/status/20/photo/1', 'Group', '20'],
  ['http://x.com/Group/status/20/', 'Group', '20'],
  ['HTTPS://X.COM/Group/status/20#reply', 'Group', '20'],
  ['  x.com/Group/status/20  ', 'Group', '20'],
  ['https://nitter.example:8443/Group/status/20#m', 'Group', '20'],
  ['https://x.com/abcdefghijklmno/status/9', 'abcdefghijklmno', '9'],
];

test('post URL: platform and mirror post addresses give the account and the post id', (t) => {
  for (const [input, username, postId] of validUrls) {
    t.deepEqual(parsePostUrl(input, { mirrorUrl: MIRROR }), { username, postId }, input);
  }
});

const hostileUrls = [
  '',
  'not a url',
  'javascript:alert(1)//x.com/Group/status/20',
  'data:text/html,https://x.com/Group/status/20',
  'ftp://x.com/Group/status/20',
  'https://user:pass@x.com/Group/status/20',
  'https://x.com@evil.example/Group/status/20',
  'https://evil.example/x.com/Group/status/20',
  'https://x.com.evil.example/Group/status/20',
  'https://evilx.com/Group/status/20',
  'https://x.com./Group/status/20',
  'https://x.com:8443/Group/status/20',
  'https://nitter.example/Group/status/20', // mirror host, other port
  'http://nitter.example:8443/Group/status/20', // mirror host, other scheme
  'https://x.com\\@evil.example/Group/status/20',
  '//x.com/Group/status/20',
  'https://x.com/Group/status/',
  'https://x.com/Group/status/abc',
  'https://x.com/Group/status/020',
  'https://x.com/Group/status/12345678901234567890',
  'https://x.com/abcdefghijklmnop/status/20', // 16 characters
  'https://x.com/Gr-oup/status/20',
  'https://x.com/%47roup/status/20',
  'https://x.com/Group/status/20/photo/9',
  'https://x.com/Group/status/20/likes',
  'https://x.com/i/status/20',
  'https://x.com/i/web/status/20',
  'https://x.com/Group',
  'https://x.com/Gr\noup/status/20',
  'https://x.com/Group/status/20\u0000',
];

test('post URL: other hosts, schemes, ports, credentials and malformed paths give null', (t) => {
  for (const input of hostileUrls) {
    t.is(parsePostUrl(input, { mirrorUrl: MIRROR }), null, JSON.stringify(input));
  }
  t.is(parsePostUrl('https://nitter.example:8443/Group/status/20'), null, 'no mirror configured');
  t.is(parsePostUrl('https://x.com/Group/status/20', { mirrorUrl: 'not a url' })?.postId, '20');
});

test('post time: UTC instants become Asia/Seoul date and HH:MM', (t) => {
  t.deepEqual(toSeoulDateTime('2026-11-21T03:04:00.000Z'), { date: '2026-11-21', time: '12:04' });
  t.deepEqual(toSeoulDateTime('2026-12-31T15:30:59Z'), { date: '2027-01-01', time: '00:30' });
  t.deepEqual(toSeoulDateTime('2026-03-01T14:59:00Z'), { date: '2026-03-01', time: '23:59' });
  t.throws(() => toSeoulDateTime('yesterday'), { instanceOf: RangeError });
});

test('mirror markup: times, image links and cursor links are interpreted strictly', (t) => {
  t.is(parseMirrorTime('Nov 21, 2026 · 3:04 AM UTC'), '2026-11-21T03:04:00.000Z');
  t.is(parseMirrorTime('Jan 1, 2027 · 12:00 AM UTC'), '2027-01-01T00:00:00.000Z');
  t.is(parseMirrorTime('Jan 1, 2027 · 12:30 PM UTC'), '2027-01-01T12:30:00.000Z');
  t.is(parseMirrorTime('Nov 21, 2026 · 3:04 AM UTC · Twitter for iPhone'), '2026-11-21T03:04:00.000Z');
  t.is(parseMirrorTime('Feb 30, 2026 · 3:04 AM UTC'), null);
  t.is(parseMirrorTime('2h'), null);
  t.is(snowflakeTime(snowflakeFor('2026-11-21T03:04:05.678Z')), '2026-11-21T03:04:05.678Z');

  const orig = 'https://pbs.twimg.com/media/ABCDEF?format=jpg&name=orig';
  t.is(mirrorImageToOriginal('/pic/orig/media%2FABCDEF.jpg'), orig);
  t.is(mirrorImageToOriginal('/pic/media%2FABCDEF.jpg%3Fname%3Dsmall'), orig);
  t.is(mirrorImageToOriginal('/pic/media%2FABCDEF.jpg?name=small'), orig);
  t.is(mirrorImageToOriginal('https://nitter.example/pic/orig/media%2FABCDEF.jpeg'), orig);
  t.is(
    mirrorImageToOriginal(`/pic/orig/enc/${Buffer.from('media/Xy_z-9.png').toString('base64url')}`),
    'https://pbs.twimg.com/media/Xy_z-9?format=png&name=orig',
  );
  t.is(mirrorImageToOriginal('/pic/amplify_video_thumb%2F1%2Fimg%2Fabc.jpg'), null);
  t.is(mirrorImageToOriginal('/pic/media%2F..%2F..%2Fetc.jpg'), null);
  t.is(mirrorImageToOriginal('/pic/media%2FABCDEF.svg'), null);
  t.is(mirrorImageToOriginal('https://evil.example/media/ABCDEF.jpg'), null);

  const context = { current: 'http://m.test/group', mirrorOrigin: 'http://m.test', username: 'group', visited: new Set(['http://m.test/group?cursor=A']) };
  t.is(nextTimelineUrl(['?cursor=B%3D'], context), 'http://m.test/group?cursor=B%3D');
  t.is(nextTimelineUrl(['?cursor=A'], context), null, 'a cursor already read is not followed again');
  t.is(nextTimelineUrl(['http://evil.test/group?cursor=B'], context), null);
  t.is(nextTimelineUrl(['/other?cursor=B'], context), null);
  t.is(nextTimelineUrl(['/group'], context), null);
});

// ---------------------------------------------------------------------------------------
// Through real Chromium
// ---------------------------------------------------------------------------------------

let mirror: FakeMirror;
let thirdParty: Server;
const thirdPartyRequests: string[] = [];
let baselinePages = 0;

test.before(async () => {
  thirdParty = createServer((req, res) => {
    thirdPartyRequests.push(req.url ?? '');
    res.end('tracked');
  });
  await new Promise<void>((resolve) => thirdParty.listen(0, '127.0.0.1', resolve));
  const { port } = thirdParty.address() as AddressInfo;
  mirror = await startFakeMirror({ thirdPartyUrl: `http://127.0.0.1:${port}/pixel.png` });
  if (!chromiumProblem) {
    const browser = await getBrowser({ executablePath: CHROMIUM });
    baselinePages = (await browser.pages()).length;
  }
});

test.after.always(async () => {
  await closeBrowser();
  await mirror?.close();
  thirdParty?.closeAllConnections();
  await new Promise<void>((resolve) => (thirdParty ? thirdParty.close(() => resolve()) : resolve()));
});

/** Chromium tests fail, never skip, when the browser is missing. */
function chromiumTest(title: string, fn: (t: ExecutionContext) => Promise<void>): void {
  test.serial(title, async (t) => {
    if (chromiumProblem) {
      t.fail(`${chromiumProblem} (CHROMIUM_PATH로 다른 경로를 지정할 수 있습니다)`);
      return;
    }
    await fn(t);
  });
}

function reader(options: { breaker?: CircuitBreaker; navigationTimeoutMs?: number } = {}): MicroblogReader {
  return new MicroblogReader({
    mirrorUrl: mirror.url,
    executablePath: CHROMIUM,
    navigationTimeoutMs: options.navigationTimeoutMs ?? 5_000,
    breaker: options.breaker ?? new CircuitBreaker({ failureThreshold: 3, resetAfterMs: 60_000 }),
  });
}

const BASE = Date.UTC(2026, 10, 21, 3, 4);

let sequence = 0;

/** `count` posts an hour apart, newest first; ids unique across the file like real ones. */
function hourlyPosts(count: number, prefix: string): FakePost[] {
  return Array.from({ length: count }, (_, i) => {
    const createdAt = new Date(BASE - i * 3_600_000).toISOString();
    return { id: snowflakeFor(createdAt, (sequence += 1)), text: `${prefix} ${i}`, createdAt };
  });
}

function timelineRequests(username: string): string[] {
  return mirror.requests.filter((path) => path === `/${username}` || path.startsWith(`/${username}?`));
}

chromiumTest('Chromium test prerequisite: the browser exists or the message says how to install it', async (t) => {
  t.is(chromiumProblem, null);
  t.log(`Chromium: ${CHROMIUM} (from ${chromiumSource})`);
  const missing = await t.throwsAsync(assertChromiumExists('/nonexistent/chromium'), {
    instanceOf: BrowserNotFoundError,
  });
  t.true(missing.message.includes(CHROMIUM_INSTALL_HINT));
});

chromiumTest('reader: id, Korean text with emoji and line breaks, time, name and original images', async (t) => {
  const newest = '2026-11-21T03:04:00.000Z';
  const posts: FakePost[] = [
    {
      id: snowflakeFor(newest, 1),
      text: '오늘 저녁 8시 🎤 음악방송 출연!\n\n많은 응원 부탁드려요 💜 #컴백 @fan_club\nhttps://www.youtube.com/watch?v=abcdefghijk&t=42s',
      createdAt: newest,
      images: ['GxAbC1.jpg', 'GxAbC2.png', 'GxAbC3.jpg', 'GxAbC4.jpg'],
    },
    {
      id: snowflakeFor('2026-11-20T23:00:00.000Z'),
      text: '리트윗된 다른 계정의 글',
      createdAt: '2026-11-20T23:00:00.000Z',
      retweetOf: { username: 'other_acct', displayName: '다른 계정' },
    },
    { id: snowflakeFor('2026-11-20T22:00:00.000Z'), text: '<b>태그</b> & "따옴표"', createdAt: '2026-11-20T22:00:00.000Z' },
    { id: snowflakeFor('2020-01-01T00:00:00.000Z'), text: '고정된 글', createdAt: '2020-01-01T00:00:00.000Z', pinned: true },
  ];
  mirror.setPosts('group_a', posts, { displayName: '그룹 공식 ✨' });

  const result = await reader().readTimeline('group_a', { maxPages: 1 });
  t.deepEqual(result.map((post) => post.postId), [posts[0]!.id, posts[2]!.id, posts[3]!.id], 'retweets left out');
  t.deepEqual(result[0], {
    postId: posts[0]!.id,
    username: 'group_a',
    displayName: '그룹 공식 ✨',
    text: '오늘 저녁 8시 🎤 음악방송 출연!\n\n많은 응원 부탁드려요 💜 #컴백 @fan_club\nhttps://www.youtube.com/watch?v=abcdefghijk&t=42s',
    createdAt: '2026-11-21T03:04:00.000Z',
    imageUrls: [
      'https://pbs.twimg.com/media/GxAbC1?format=jpg&name=orig',
      'https://pbs.twimg.com/media/GxAbC2?format=png&name=orig',
      'https://pbs.twimg.com/media/GxAbC3?format=jpg&name=orig',
      'https://pbs.twimg.com/media/GxAbC4?format=jpg&name=orig',
    ],
  });
  t.is(result[1]!.text, '<b>태그</b> & "따옴표"', 'markup in a post stays text');
  t.deepEqual(result[1]!.imageUrls, []);
  t.deepEqual(toSeoulDateTime(result[0]!.createdAt), { date: '2026-11-21', time: '12:04' });
});

chromiumTest('reader: pages back through the "Load more" cursor over 3 pages and stops at a known post', async (t) => {
  const posts = hourlyPosts(70, '일정');
  mirror.setPosts('group_b', posts);
  const known = new Set(posts.slice(50).map((post) => post.id));

  const before = timelineRequests('group_b').length;
  const result = await reader().readTimeline('group_b', { knownPostIds: known, maxPages: 10 });
  t.is(result.length, 50);
  t.deepEqual(result.map((post) => post.postId), posts.slice(0, 50).map((post) => post.id), 'newest first');
  const read = timelineRequests('group_b').slice(before);
  t.is(read.length, 3, 'page 3 holds the known post, so page 4 is never read');
  t.is(read[0], '/group_b');
  t.true(read.slice(1).every((path) => path.startsWith('/group_b?cursor=')));

  const limited = await reader().readTimeline('group_b', { knownPostIds: (id) => known.has(id), maxPages: 2 });
  t.is(limited.length, 40, 'maxPages bounds the pass');

  const everything = await reader().readTimeline('group_b', { maxPages: Infinity });
  t.is(everything.length, 70, 'a full pass reads until the mirror has no more');
});

chromiumTest('reader: a self-thread shown oldest first is still read newest first and stops correctly', async (t) => {
  const posts = hourlyPosts(5, '스레드').map((post, i) => (i < 3 ? { ...post, threadId: 'T1' } : post));
  mirror.setPosts('group_c', posts);
  const result = await reader().readTimeline('group_c', { knownPostIds: new Set([posts[2]!.id]) });
  t.deepEqual(result.map((post) => post.text), ['스레드 0', '스레드 1']);
});

chromiumTest('reader: readPost reads one status page; unknown posts and accounts give 404', async (t) => {
  const posts = hourlyPosts(3, '단일 게시물');
  posts[1] = { ...posts[1]!, text: '팬사인회 안내\n장소: 서울 🏟️', images: ['Fan1.jpg', 'Fan2.jpg'] };
  mirror.setPosts('Group_D', posts, { displayName: '그룹 D' });
  const breaker = new CircuitBreaker({ failureThreshold: 1, resetAfterMs: 60_000 });
  const r = reader({ breaker });

  t.deepEqual(await r.readPost('group_d', posts[1]!.id), {
    postId: posts[1]!.id,
    username: 'Group_D',
    displayName: '그룹 D',
    text: '팬사인회 안내\n장소: 서울 🏟️',
    createdAt: posts[1]!.createdAt,
    imageUrls: [
      'https://pbs.twimg.com/media/Fan1?format=jpg&name=orig',
      'https://pbs.twimg.com/media/Fan2?format=jpg&name=orig',
    ],
  });

  const missingPost = await t.throwsAsync(r.readPost('Group_D', '1234567890123456789'), { instanceOf: MicroblogReadError });
  t.is(missingPost.code, 'not-found');
  t.is(missingPost.status, 404);
  const missingUser = await t.throwsAsync(r.readTimeline('nobody_here'), { instanceOf: MicroblogReadError });
  t.is(missingUser.code, 'not-found');
  t.is(missingUser.message, '계정을 찾을 수 없습니다.');
  t.is(breaker.state, 'closed', 'a 404 is an answer, not an outage');

  const invalid = await t.throwsAsync(r.readPost('../etc', '1'), { instanceOf: MicroblogReadError });
  t.is(invalid.status, 400);
});

chromiumTest('reader: a page that never answers times out and its tab is closed', async (t) => {
  mirror.setPosts('group_e', hourlyPosts(2, '느린'));
  mirror.failNext(1, 'hang');
  const started = Date.now();
  const error = await t.throwsAsync(reader({ navigationTimeoutMs: 1_500 }).readTimeline('group_e'), {
    instanceOf: MicroblogReadError,
  });
  t.is(error.code, 'timeout');
  t.is(error.status, 504);
  t.true(Date.now() - started < 6_000, `took ${Date.now() - started} ms`);
  t.is(openPageCount(), 0);
  t.is((await reader().readTimeline('group_e')).length, 2, 'the next read works');
});

chromiumTest('reader: the breaker opens after repeated failures and closes after the reset time', async (t) => {
  mirror.setPosts('group_f', hourlyPosts(3, '복구'));
  const clock = manualClock();
  const breaker = new CircuitBreaker({ failureThreshold: 2, resetAfterMs: 60_000, now: clock.now });
  const r = reader({ breaker });

  mirror.failNext(2, 'error');
  for (let i = 0; i < 2; i += 1) {
    const error = await t.throwsAsync(r.readTimeline('group_f'), { instanceOf: MicroblogReadError });
    t.is(error.code, 'unavailable');
    t.regex(error.message, /HTTP 500/);
  }
  t.is(breaker.state, 'open');

  const before = mirror.requests.length;
  await t.throwsAsync(r.readTimeline('group_f'), { instanceOf: CircuitOpenError });
  await t.throwsAsync(r.readPost('group_f', '1234567890123456789'), { instanceOf: CircuitOpenError });
  t.is(mirror.requests.length, before, 'nothing reaches the mirror while open');

  clock.advance(60_000);
  t.is(breaker.state, 'half-open');
  t.is((await r.readTimeline('group_f')).length, 3);
  t.is(breaker.state, 'closed');
});

chromiumTest('browser: only the mirror origin is reachable, images render, pages are closed after use', async (t) => {
  const posts = hourlyPosts(1, '사진');
  posts[0] = { ...posts[0]!, images: ['Render1.jpg', 'Render2.png'] };
  mirror.setPosts('group_g', posts);
  const blocked: string[] = [];
  const sizes = await withPage(
    async (page) => {
      await page.goto(`${mirror.url}/group_g`, { waitUntil: 'load' });
      return page.$$eval('.attachments img', (images) => images.map((image) => (image as { naturalWidth: number }).naturalWidth));
    },
    { executablePath: CHROMIUM, timeoutMs: 5_000, allowedOrigins: [mirror.url], onBlockedRequest: (url) => blocked.push(url) },
  );
  t.deepEqual(sizes, [8, 8], 'the mirror serves decodable images');
  t.true(blocked.some((url) => url.endsWith('/pixel.png')), 'the third-party image was blocked');

  await reader().readTimeline('group_g');
  t.deepEqual(thirdPartyRequests, [], 'no request ever reached the other origin');

  t.is(openPageCount(), 0);
  const browser = await getBrowser({ executablePath: CHROMIUM });
  t.is((await browser.pages()).length, baselinePages, 'every tab opened by the tests was closed');

  await t.throwsAsync(
    withPage(async () => {
      throw new Error('extraction failed');
    }, { executablePath: CHROMIUM, timeoutMs: 1_000, allowedOrigins: [mirror.url] }),
    { message: 'extraction failed' },
  );
  t.is((await browser.pages()).length, baselinePages, 'a failing callback still closes its tab');
});

chromiumTest('browser: with the page\'s interception off, another port of an allowed host is still unreachable (the proxy)', async (t) => {
  const posts = hourlyPosts(1, '프록시');
  posts[0] = { ...posts[0]!, images: ['Proxy1.jpg'] };
  mirror.setPosts('group_p', posts);
  const before = thirdPartyRequests.length;
  const sizes = await withPage(
    async (page) => {
      await page.setRequestInterception(false);
      await page.goto(`${mirror.url}/group_p`, { waitUntil: 'load' });
      return page.$$eval('img', (images) => images.map((image) => (image as { naturalWidth: number }).naturalWidth));
    },
    { executablePath: CHROMIUM, timeoutMs: 5_000, allowedOrigins: [mirror.url] },
  );
  t.true(sizes.includes(8), 'the mirror\'s own image still loads');
  t.true(sizes.includes(0), 'the other port\'s image does not');
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.deepEqual(thirdPartyRequests.slice(before), [], 'nothing reached the other port');
});

chromiumTest('browser: a host outside the resolver rules gets a new browser; the old one is closed', async (t) => {
  const first = await getBrowser({ executablePath: CHROMIUM });
  const wider = await getBrowser({ executablePath: CHROMIUM, allowedHosts: ['mirror.invalid'] });
  t.not(wider, first);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.false(first.connected, 'the retired browser had no pages open and was closed');
  t.is(await getBrowser({ executablePath: CHROMIUM }), wider, 'the wider rules cover the default hosts');
});

chromiumTest('browser: relaunches after the browser went away', async (t) => {
  const first = await getBrowser({ executablePath: CHROMIUM });
  first.process()?.kill('SIGKILL');
  await new Promise<void>((resolve) => (first.connected ? first.once('disconnected', () => resolve()) : resolve()));
  mirror.setPosts('group_h', hourlyPosts(1, '재시작'));
  t.is((await reader().readTimeline('group_h')).length, 1);
  t.not(await getBrowser({ executablePath: CHROMIUM }), first);
});
