// Albums (api-service.md 4.3; decisions.md "Members and albums") over real HTTP: albums with tracks
// and covers, photos and teasers with real multipart bodies, the real image pool and local storage.
import test from 'ava';
import jwt from 'jsonwebtoken';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { countRows, insertMember } from './helpers/factory.ts';
import { jpegImage, longSide, pngImage } from './helpers/images.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let token: string;
let userToken: string;
let members: Array<{ id: number; name: string }>;
let png: Buffer;
let jpeg: Buffer;

test.before(async () => {
  service = await startTestService();
  token = await adminToken(service.url);
  userToken = jwt.sign({ id: 1, email: 'fan@example.com', isAdmin: true }, service.config.jwtSecret!, { algorithm: 'HS256', audience: 'user' });
  members = [await insertMember(db(), { name: '이새롬' }), await insertMember(db(), { name: '노지선' })];
  [png, jpeg] = await Promise.all([pngImage(1200, 900), jpegImage(900, 1200)]);
});
test.after.always(async () => {
  await service?.stop();
});

const db = () => service.running.services.db;
const storageDir = () => join(service.dataDir, 'storage', 'media');

/** A real-shaped MP4 start: an `ftyp` box with brand isom, then some payload. */
const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isommp41'), randomBytes(4096)]);

type FilePart = { name?: string; fileName: string; bytes: Uint8Array; type?: string };

function form(payload: unknown, files: FilePart[] = [], defaultName = 'file'): FormData {
  const data = new FormData();
  if (payload !== undefined) data.append('payload', typeof payload === 'string' ? payload : JSON.stringify(payload));
  for (const file of files) data.append(file.name ?? defaultName, new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.fileName);
  return data;
}

const send = (method: string, path: string, body?: FormData | string, options: { token?: string | null; json?: unknown } = {}) =>
  call(service.url, method, path, { body, json: options.json, token: options.token === null ? undefined : (options.token ?? token) });
const get = (path: string) => call(service.url, 'GET', path);
const cover = (bytes: Uint8Array = png, fileName = 'cover.png'): FilePart => ({ name: 'cover', fileName, bytes });

let n = 0;
const track = (trackNumber: number, title: string, extra: Record<string, unknown> = {}) => ({ trackNumber, title, ...extra });
const albumPayload = (overrides: Record<string, unknown> = {}) => ({
  title: `앨범 ${++n} ${randomBytes(3).toString('hex')}`,
  albumType: '미니',
  releaseDate: '2024-01-09',
  description: '설명',
  tracks: [track(1, 'DM', { isTitleTrack: true, duration: '3:09', lyricist: '작사가', composer: '작곡가', arranger: '편곡가', lyrics: '가사', musicVideoUrl: 'https://video.example.com/watch?v=abc' }), track(2, 'Hush Hush')],
  ...overrides,
});

async function createAlbum(payload: Record<string, unknown> = albumPayload(), files: FilePart[] = []) {
  const response = await send('POST', '/api/albums/', form(payload, files));
  if (response.status !== 201) throw new Error(`create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function uploadPhotos(albumId: number, files: FilePart[], payload?: unknown) {
  const response = await send('POST', `/api/albums/${albumId}/photos/`, form(payload, files));
  if (response.status !== 201) throw new Error(`photos: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.photos as Array<Record<string, any>>;
}

async function uploadTeaser(albumId: number, file: FilePart, payload?: unknown) {
  const response = await send('POST', `/api/albums/${albumId}/teasers/`, form(payload, [file]));
  if (response.status !== 201) throw new Error(`teaser: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Files (not directories) under the storage bucket, or under one prefix of it. */
async function storedFiles(prefix = ''): Promise<string[]> {
  const dir = join(storageDir(), prefix);
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Everything an album write could leave behind, to compare before and after a refused request. */
async function snapshot() {
  const tables = await Promise.all((['albums', 'tracks', 'album_photos', 'album_teasers', 'images'] as const).map((table) => countRows(db(), table)));
  return { tables, files: (await storedFiles()).length };
}

const keyOf = (url: string) => decodeURIComponent(url.slice(url.indexOf('/storage/media/') + '/storage/media/'.length));
const fileExists = (url: string) => existsSync(join(storageDir(), keyOf(url)));

// ---- 401 on every write ------------------------------------------------------------------------

test('every write without an administrator token, or with a user token, gives 401', async (t) => {
  const album = await createAlbum();
  const [photo] = await uploadPhotos(album.id, [{ fileName: 'a.png', bytes: png }]);
  const teaser = await uploadTeaser(album.id, { fileName: 'a.png', bytes: png });
  const writes: Array<[string, string, () => FormData | undefined, unknown?]> = [
    ['POST', '/api/albums/', () => form(albumPayload())],
    ['PUT', `/api/albums/${album.id}`, () => form({ title: '바뀐 제목' })],
    ['DELETE', `/api/albums/${album.id}`, () => undefined],
    ['POST', `/api/albums/${album.id}/photos/`, () => form(undefined, [{ fileName: 'a.png', bytes: png }])],
    ['PUT', `/api/albums/${album.id}/photos/${photo!.id}`, () => undefined, { concept: 'x' }],
    ['DELETE', `/api/albums/${album.id}/photos/${photo!.id}`, () => undefined],
    ['POST', `/api/albums/${album.id}/teasers/`, () => form(undefined, [{ fileName: 'a.png', bytes: png }])],
    ['DELETE', `/api/albums/${album.id}/teasers/${teaser.id}`, () => undefined],
  ];
  for (const bad of [null, userToken, 'garbage']) {
    for (const [method, path, body, json] of writes) {
      const response = await send(method, path, body(), { token: bad, json });
      t.is(response.status, 401, `${method} ${path} with ${String(bad).slice(0, 10)}`);
      t.truthy(response.body.error);
    }
  }
  // Nothing changed.
  t.is((await get(`/api/albums/${album.id}`)).body.title, album.title);
  t.is((await get(`/api/albums/${album.id}/photos/`)).body.length, 1);
  t.is((await get(`/api/albums/${album.id}/teasers/`)).body.length, 1);
});

// ---- refused writes store nothing (serial: they compare whole-table snapshots) -------------------

test.serial('POST: no payload, a missing or blank title, wrong types and bad tracks give 400 and store nothing', async (t) => {
  const before = await snapshot();
  const { title: _omitted, ...withoutTitle } = albumPayload();
  for (const [name, body] of [
    ['no payload', form(undefined, [cover()])],
    ['payload not JSON', form('{"title": ')],
    ['no title', form(withoutTitle, [cover()])],
    ['blank title', form(albumPayload({ title: '   ' }), [cover()])],
    ['numeric title', form(albumPayload({ title: 42 }))],
    ['impossible releaseDate', form(albumPayload({ releaseDate: '2024-02-30' }), [cover()])],
    ['releaseDate of another format', form(albumPayload({ releaseDate: '2024/01/09' }))],
    ['tracks not an array', form(albumPayload({ tracks: 'DM' }))],
    ['trackNumber 0', form(albumPayload({ tracks: [track(0, 'A')] }))],
    ['trackNumber as a string', form(albumPayload({ tracks: [track('1' as unknown as number, 'A')] }))],
    ['duplicate trackNumbers', form(albumPayload({ tracks: [track(1, 'A'), track(1, 'B')] }), [cover()])],
    ['duplicate track titles', form(albumPayload({ tracks: [track(1, 'A'), track(2, 'A')] }))],
    ['a track without a title', form(albumPayload({ tracks: [{ trackNumber: 1 }] }))],
    ['a blank track title', form(albumPayload({ tracks: [track(1, ' ')] }))],
    ['isTitleTrack as a string', form(albumPayload({ tracks: [track(1, 'A', { isTitleTrack: 'yes' })] }))],
    ['a javascript: music video URL', form(albumPayload({ tracks: [track(1, 'A', { musicVideoUrl: 'javascript:alert(1)' })] }))],
    ['a malformed duration', form(albumPayload({ tracks: [track(1, 'A', { duration: 'three minutes' })] }))],
    ['an unknown field', form(albumPayload({ coverUrl: 'x' }))],
    ['a second text part', (() => { const f = form(albumPayload()); f.append('note', 'x'); return f; })()],
  ] as const) {
    const response = await send('POST', '/api/albums/', body);
    t.is(response.status, 400, `${name}: ${JSON.stringify(response.body)}`);
    t.truthy(response.body.error);
  }
  // A JSON body is the payload alone (test/json-bodies.test.ts): one that does not parse is 400.
  t.is((await send('POST', '/api/albums/', '{"title": ')).status, 400, 'a JSON body that does not parse');
  t.deepEqual(await snapshot(), before);
});

test.serial('POST: a cover that is not an image, or sent under another name, gives 400; two files give 413; nothing stored', async (t) => {
  const before = await snapshot();
  const text = await send('POST', '/api/albums/', form(albumPayload(), [{ name: 'cover', fileName: 'cover.png', bytes: Buffer.from('not an image'), type: 'image/png' }]));
  t.is(text.status, 400);
  t.truthy(text.body.error);
  t.is((await send('POST', '/api/albums/', form(albumPayload(), [{ name: 'image', fileName: 'cover.png', bytes: png }]))).status, 400);
  t.is((await send('POST', '/api/albums/', form(albumPayload(), [cover(), cover(jpeg, 'b.jpg')]))).status, 413);
  t.deepEqual(await snapshot(), before);
});

test.serial('POST and PUT: a title another album has gives 409 and stores nothing (NFC-equal titles are the same title)', async (t) => {
  const existing = await createAlbum(albumPayload({ title: '중복 확인 앨범' }));
  const other = await createAlbum();
  const before = await snapshot();
  const again = await send('POST', '/api/albums/', form(albumPayload({ title: '중복 확인 앨범' }), [cover()]));
  t.is(again.status, 409);
  t.truthy(again.body.error);
  t.is((await send('POST', '/api/albums/', form(albumPayload({ title: ' 중복 확인 앨범'.normalize('NFD') })))).status, 409);
  const put = await send('PUT', `/api/albums/${other.id}`, form({ title: existing.title }, [cover()]));
  t.is(put.status, 409);
  t.deepEqual(await snapshot(), before);
  t.deepEqual((await get(`/api/albums/${other.id}`)).body, other);
});

test.serial('PUT: no payload, wrong types and bad tracks give 400 and change nothing', async (t) => {
  const album = await createAlbum(albumPayload(), [cover()]);
  const before = await snapshot();
  for (const body of [
    form(undefined, [cover()]),
    form({ title: '' }),
    form({ releaseDate: '2024-13-01' }),
    form({ tracks: [track(1, 'A'), track(1, 'B')] }, [cover()]),
    form({ tracks: [track(-1, 'A')] }),
    form({ description: 5 }),
    form({ albumType: null }),
    form({}, [{ name: 'cover', fileName: 'c.png', bytes: Buffer.from('GIF89a but not really') }]),
  ]) {
    const response = await send('PUT', `/api/albums/${album.id}`, body);
    t.is(response.status, 400, JSON.stringify(response.body));
  }
  t.deepEqual(await snapshot(), before);
  t.deepEqual((await get(`/api/albums/${album.id}`)).body, album);
});

test.serial('photos: unknown members, a non-image among the files, no file, a file over 20 MB are refused and store nothing', async (t) => {
  const album = await createAlbum();
  const before = await snapshot();
  t.is((await send('POST', `/api/albums/${album.id}/photos/`, form({ memberIds: [987654] }, [{ fileName: 'a.png', bytes: png }]))).status, 400);
  t.is((await send('POST', `/api/albums/${album.id}/photos/`, form({ memberIds: ['1'] }, [{ fileName: 'a.png', bytes: png }]))).status, 400);
  t.is((await send('POST', `/api/albums/${album.id}/photos/`, form({ sortOrder: -1 }, [{ fileName: 'a.png', bytes: png }]))).status, 400);
  const mixed = await send('POST', `/api/albums/${album.id}/photos/`, form(undefined, [{ fileName: 'a.png', bytes: png }, { fileName: 'b.jpg', bytes: Buffer.from('plain text'), type: 'image/jpeg' }]));
  t.is(mixed.status, 400);
  t.truthy(mixed.body.error);
  t.is((await send('POST', `/api/albums/${album.id}/photos/`, form({ concept: 'A' }))).status, 400);
  t.is((await send('POST', `/api/albums/${album.id}/photos/`, form(undefined, [{ fileName: 'huge.png', bytes: Buffer.alloc(21 * 1024 * 1024, 1) }]))).status, 413);
  t.deepEqual(await snapshot(), before);
});

test.serial('teasers: a text file, an empty body, a HEIC-like box, a second file give 400/413 and store nothing', async (t) => {
  const album = await createAlbum();
  const before = await snapshot();
  const text = await send('POST', `/api/albums/${album.id}/teasers/`, form(undefined, [{ fileName: 'clip.mp4', bytes: Buffer.from('hello, this is text'), type: 'video/mp4' }]));
  t.is(text.status, 400);
  t.truthy(text.body.error);
  const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1heic'), randomBytes(64)]);
  t.is((await send('POST', `/api/albums/${album.id}/teasers/`, form(undefined, [{ fileName: 'x.heic', bytes: heic }]))).status, 400);
  t.is((await send('POST', `/api/albums/${album.id}/teasers/`, form({ sortOrder: 1 }))).status, 400);
  t.is((await send('POST', `/api/albums/${album.id}/teasers/`, form({ sortOrder: 'first' }, [{ fileName: 'a.png', bytes: png }]))).status, 400);
  t.is((await send('POST', `/api/albums/${album.id}/teasers/`, form(undefined, [{ fileName: 'a.png', bytes: png }, { fileName: 'b.png', bytes: png }]))).status, 413);
  // An image teaser keeps the image limit (20 MB) although videos may be larger.
  const bigPng = Buffer.concat([png.subarray(0, 8), Buffer.alloc(21 * 1024 * 1024, 1)]);
  t.is((await send('POST', `/api/albums/${album.id}/teasers/`, form(undefined, [{ fileName: 'big.png', bytes: bigPng }]))).status, 413);
  t.deepEqual(await snapshot(), before);
});

test.serial('teasers: a body declared over the 100 MB limit gives 413 before it is read', async (t) => {
  const before = await snapshot();
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(`${service.url}/api/albums/1/teasers/`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(101 * 1024 * 1024 + 1), authorization: `Bearer ${token}` },
    }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
    req.write('--x\r\n');
  });
  t.is(status, 413);
  t.deepEqual(await snapshot(), before);
});

// ---- albums --------------------------------------------------------------------------------------

test('POST: 201 with the album; tracks by number; cover in three sizes stored as album/<id>/cover/<ms>.<format>', async (t) => {
  const payload = albumPayload({ tracks: [track(3, '셋'), track(1, '하나', { isTitleTrack: true }), track(2, '둘')] });
  const album = await createAlbum(payload, [cover(jpeg, 'front.JPG')]);
  t.deepEqual(Object.keys(album).sort(), ['albumType', 'cover', 'description', 'id', 'releaseDate', 'title', 'tracks']);
  t.is(album.title, payload.title);
  t.is(album.albumType, '미니');
  t.is(album.releaseDate, '2024-01-09');
  t.is(album.description, '설명');
  t.deepEqual(album.tracks.map((tr: { trackNumber: number; title: string }) => [tr.trackNumber, tr.title]), [[1, '하나'], [2, '둘'], [3, '셋']]);
  t.deepEqual(Object.keys(album.tracks[0]).sort(), ['arranger', 'composer', 'duration', 'id', 'isTitleTrack', 'lyricist', 'lyrics', 'musicVideoUrl', 'title', 'trackNumber']);
  t.true(album.tracks[0].isTitleTrack);
  t.false(album.tracks[1].isTitleTrack);
  t.is(album.tracks[1].duration, null);
  t.deepEqual(Object.keys(album.cover).sort(), ['mediumUrl', 'originalUrl', 'thumbUrl']);
  t.regex(keyOf(album.cover.originalUrl), new RegExp(`^album/${album.id}/cover/\\d{13}\\.jpeg$`));
  t.regex(keyOf(album.cover.mediumUrl), new RegExp(`^album/${album.id}/cover/medium/\\d{13}\\.webp$`));
  t.regex(keyOf(album.cover.thumbUrl), new RegExp(`^album/${album.id}/cover/thumb/\\d{13}\\.webp$`));
  const original = await fetch(album.cover.originalUrl);
  t.deepEqual(Buffer.from(await original.arrayBuffer()), jpeg);
  t.is(await longSide(new Uint8Array(await (await fetch(album.cover.mediumUrl)).arrayBuffer())), 800);
  t.is(await longSide(new Uint8Array(await (await fetch(album.cover.thumbUrl)).arrayBuffer())), 400);
  t.deepEqual((await get(`/api/albums/${album.id}`)).body, album);
});

test('POST: only the title is required; the rest defaults (no cover, no tracks, empty type, null date and description)', async (t) => {
  const album = await createAlbum({ title: `  최소 앨범 ${randomBytes(3).toString('hex')}  ` });
  t.regex(album.title, /^최소 앨범 [0-9a-f]{6}$/, 'trimmed');
  t.deepEqual({ ...album, id: 0, title: '' }, { id: 0, title: '', albumType: '', releaseDate: null, cover: null, description: null, tracks: [] });
});

test('GET /api/albums/: every album with its tracks, newest release first, undated last', async (t) => {
  const older = await createAlbum(albumPayload({ releaseDate: '2019-01-01' }));
  const newer = await createAlbum(albumPayload({ releaseDate: '2030-06-01' }));
  const undated = await createAlbum(albumPayload({ releaseDate: null }));
  const response = await get('/api/albums/');
  t.is(response.status, 200);
  t.true(Array.isArray(response.body));
  const ids = response.body.map((album: { id: number }) => album.id);
  t.true(ids.indexOf(newer.id) < ids.indexOf(older.id));
  t.true(ids.indexOf(older.id) < ids.indexOf(undated.id));
  const dates = response.body.map((album: { releaseDate: string | null }) => album.releaseDate).filter((date: string | null) => date !== null);
  t.deepEqual(dates, [...dates].sort().reverse());
  t.deepEqual(response.body.find((album: { id: number }) => album.id === newer.id), newer);
});

test('GET /api/albums/:id: 404 unknown, 400 malformed', async (t) => {
  t.is((await get('/api/albums/999999')).status, 404);
  t.truthy((await get('/api/albums/999999')).body.error);
  for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) t.is((await get(`/api/albums/${bad}`)).status, 400, bad);
});

test('GET /api/albums/by-name/:name: Hangul, spaces and brackets percent-decoded; 404 unknown', async (t) => {
  const title = `봄의 노래 (Spring) ${randomBytes(2).toString('hex')}`;
  const album = await createAlbum(albumPayload({ title }));
  const response = await get(`/api/albums/by-name/${encodeURIComponent(title)}`);
  t.is(response.status, 200);
  t.deepEqual(response.body, album);
  // NFD input (as some keyboards send it) finds the same album.
  t.is((await get(`/api/albums/by-name/${encodeURIComponent(title.normalize('NFD'))}`)).body.id, album.id);
  const missing = await get(`/api/albums/by-name/${encodeURIComponent('없는 앨범')}`);
  t.is(missing.status, 404);
  t.truthy(missing.body.error);
});

test('GET …/by-name/:albumName/track/:trackTitle: the track with its neighbours at the first, middle and last track', async (t) => {
  const title = `봄의 노래 (Spring) 트랙 ${randomBytes(2).toString('hex')}`;
  const album = await createAlbum(albumPayload({ title, tracks: [track(2, '두 번째 이야기'), track(1, '첫 번째 이야기', { isTitleTrack: true, lyrics: '봄이 오면' }), track(3, '마지막 이야기')] }), [cover()]);
  const path = (trackTitle: string) => `/api/albums/by-name/${encodeURIComponent(title)}/track/${encodeURIComponent(trackTitle)}`;
  const first = await get(path('첫 번째 이야기'));
  t.is(first.status, 200);
  t.deepEqual(Object.keys(first.body).sort(), ['album', 'nextTrack', 'prevTrack', 'track']);
  t.deepEqual(first.body.album, { id: album.id, title, cover: album.cover });
  t.deepEqual(first.body.track, album.tracks[0]);
  t.is(first.body.track.lyrics, '봄이 오면');
  t.is(first.body.prevTrack, null);
  t.deepEqual(first.body.nextTrack, { title: '두 번째 이야기' });
  const middle = (await get(path('두 번째 이야기'))).body;
  t.deepEqual([middle.prevTrack, middle.nextTrack], [{ title: '첫 번째 이야기' }, { title: '마지막 이야기' }]);
  const last = (await get(path('마지막 이야기'))).body;
  t.deepEqual([last.prevTrack, last.nextTrack], [{ title: '두 번째 이야기' }, null]);
  t.is((await get(path('없는 트랙'))).status, 404);
  t.is((await get(`/api/albums/by-name/${encodeURIComponent('없는 앨범')}/track/${encodeURIComponent('첫 번째 이야기')}`)).status, 404);
  // Without a cover the album part says so.
  const bare = await createAlbum(albumPayload({ tracks: [track(1, '하나뿐')] }));
  const only = (await get(`/api/albums/by-name/${encodeURIComponent(bare.title)}/track/${encodeURIComponent('하나뿐')}`)).body;
  t.deepEqual(only, { album: { id: bare.id, title: bare.title, cover: null }, track: bare.tracks[0], prevTrack: null, nextTrack: null });
});

test('PUT: only the fields sent change; tracks replace all tracks; 200 with the album', async (t) => {
  const album = await createAlbum(albumPayload(), [cover()]);
  const response = await send('PUT', `/api/albums/${album.id}`, form({ title: `${album.title} (개정판)`, releaseDate: null, tracks: [{ ...album.tracks[1], trackNumber: 1 }, track(2, '새 트랙')] }));
  t.is(response.status, 200);
  t.is(response.body.title, `${album.title} (개정판)`);
  t.is(response.body.releaseDate, null);
  t.is(response.body.albumType, album.albumType);
  t.is(response.body.description, album.description);
  t.deepEqual(response.body.cover, album.cover);
  t.deepEqual(response.body.tracks.map((tr: { trackNumber: number; title: string }) => [tr.trackNumber, tr.title]), [[1, 'Hush Hush'], [2, '새 트랙']]);
  t.is((await db().one('SELECT count(*)::int AS n FROM tracks WHERE album_id = $1', [album.id])).n, 2);
  t.deepEqual((await get(`/api/albums/${album.id}`)).body, response.body);
  // An empty payload changes nothing; the same title is not a conflict with itself.
  t.deepEqual((await send('PUT', `/api/albums/${album.id}`, form({}))).body, response.body);
  t.is((await send('PUT', `/api/albums/${album.id}`, form({ title: response.body.title }))).status, 200);
  t.deepEqual((await send('PUT', `/api/albums/${album.id}`, form({ tracks: [] }))).body.tracks, []);
});

test('PUT: a new cover replaces the old one, whose image record and three files are removed', async (t) => {
  const album = await createAlbum(albumPayload(), [cover()]);
  const oldImage = await db().one('SELECT cover_image_id AS id FROM albums WHERE id = $1', [album.id]);
  const oldUrls = Object.values(album.cover) as string[];
  for (const url of oldUrls) t.true(fileExists(url));
  const response = await send('PUT', `/api/albums/${album.id}`, form({}, [cover(jpeg, 'new.jpg')]));
  t.is(response.status, 200);
  t.notDeepEqual(response.body.cover, album.cover);
  for (const url of oldUrls) t.false(fileExists(url), `${keyOf(url)} removed`);
  for (const url of Object.values(response.body.cover) as string[]) t.true(fileExists(url), `${keyOf(url)} stored`);
  t.is(await db().oneOrNone('SELECT 1 FROM images WHERE id = $1', [oldImage.id]), null);
  t.deepEqual(Buffer.from(await (await fetch(response.body.cover.originalUrl)).arrayBuffer()), jpeg);
  t.is((await storedFiles(`album/${album.id}/cover`)).length, 3);
});

test('PUT: 404 unknown album, 400 malformed id', async (t) => {
  const unknown = await send('PUT', '/api/albums/999999', form({ title: '없음' }));
  t.is(unknown.status, 404);
  t.truthy(unknown.body.error);
  t.is((await send('PUT', '/api/albums/abc', form({ title: '없음' }))).status, 400);
});

test('DELETE: removes tracks, photos, teasers, cover, their image records and every file; then 404', async (t) => {
  const album = await createAlbum(albumPayload(), [cover()]);
  await uploadPhotos(album.id, [{ fileName: 'a.png', bytes: png }, { fileName: 'b.jpg', bytes: jpeg }]);
  await uploadTeaser(album.id, { fileName: 'teaser.png', bytes: png });
  await uploadTeaser(album.id, { fileName: 'teaser.mp4', bytes: mp4 });
  const imageIds = (await db().any(
    `SELECT cover_image_id AS id FROM albums WHERE id = $1
     UNION ALL SELECT image_id FROM album_photos WHERE album_id = $1
     UNION ALL SELECT image_id FROM album_teasers WHERE album_id = $1 AND image_id IS NOT NULL`,
    [album.id],
  )).map((row) => row.id as number);
  t.is(imageIds.length, 4);
  t.is((await storedFiles(`album/${album.id}`)).length, 3 + 2 * 3 + 3 + 1);

  const response = await send('DELETE', `/api/albums/${album.id}`);
  t.is(response.status, 200);
  t.deepEqual(response.body, { success: true });
  for (const table of ['tracks', 'album_photos', 'album_teasers']) {
    t.is((await db().one('SELECT count(*)::int AS n FROM $1:name WHERE album_id = $2', [table, album.id])).n, 0, table);
  }
  t.is((await db().one('SELECT count(*)::int AS n FROM images WHERE id = ANY($1::int[])', [imageIds])).n, 0, 'images');
  t.deepEqual(await storedFiles(`album/${album.id}`), []);
  t.is((await get(`/api/albums/${album.id}`)).status, 404);
  t.is((await send('DELETE', `/api/albums/${album.id}`)).status, 404);
  t.is((await send('DELETE', '/api/albums/abc')).status, 400);
});

// ---- photos --------------------------------------------------------------------------------------

test('photos: several files at once get the payload, follow the last photo, are stored as album/<id>/photos/<ms><n>.<format>', async (t) => {
  const album = await createAlbum();
  const first = await uploadPhotos(album.id, [{ fileName: 'a.png', bytes: png }]);
  t.is(first[0]!.sortOrder, 1);
  const photos = await uploadPhotos(album.id, [{ fileName: 'a.png', bytes: png }, { fileName: 'b.jpg', bytes: jpeg }, { fileName: 'c', bytes: png }], { concept: 'A ver.', memberIds: [members[1]!.id, members[0]!.id] });
  t.is(photos.length, 3);
  t.deepEqual(Object.keys(photos[0]!).sort(), ['concept', 'height', 'id', 'mediumUrl', 'memberIds', 'originalUrl', 'sortOrder', 'thumbUrl', 'width']);
  t.deepEqual(photos.map((photo) => photo.sortOrder), [2, 3, 4]);
  t.deepEqual(photos.map((photo) => [photo.width, photo.height]), [[1200, 900], [900, 1200], [1200, 900]]);
  for (const photo of photos) {
    t.is(photo.concept, 'A ver.');
    t.deepEqual(photo.memberIds, [members[1]!.id, members[0]!.id]);
    for (const url of [photo.originalUrl, photo.mediumUrl, photo.thumbUrl]) t.true(fileExists(url), keyOf(url));
  }
  const keys = photos.map((photo) => keyOf(photo.originalUrl));
  const stamp = /photos\/(\d{13})1\.png$/.exec(keys[0]!)![1];
  t.deepEqual(keys, [`album/${album.id}/photos/${stamp}1.png`, `album/${album.id}/photos/${stamp}2.jpeg`, `album/${album.id}/photos/${stamp}3.png`]);
  t.is(keyOf(photos[1]!.mediumUrl), `album/${album.id}/photos/medium/${stamp}2.webp`);
  t.is(await longSide(new Uint8Array(await (await fetch(photos[1]!.thumbUrl)).arrayBuffer())), 400);

  const list = await get(`/api/albums/${album.id}/photos/`);
  t.is(list.status, 200);
  t.deepEqual(list.body, [...first, ...photos]);
});

test('photos: a payload sortOrder applies to every file; the list follows sortOrder, then upload order', async (t) => {
  const album = await createAlbum();
  const late = await uploadPhotos(album.id, [{ fileName: 'a.png', bytes: png }], { sortOrder: 50 });
  const early = await uploadPhotos(album.id, [{ fileName: 'a.png', bytes: png }, { fileName: 'b.png', bytes: png }], { sortOrder: 5, concept: null });
  t.deepEqual(early.map((photo) => photo.sortOrder), [5, 5]);
  const list = (await get(`/api/albums/${album.id}/photos/`)).body;
  t.deepEqual(list.map((photo: { id: number }) => photo.id), [early[0]!.id, early[1]!.id, late[0]!.id]);
});

test('photos: GET and POST for an unknown album give 404; malformed ids 400', async (t) => {
  t.is((await get('/api/albums/999999/photos/')).status, 404);
  t.is((await send('POST', '/api/albums/999999/photos/', form(undefined, [{ fileName: 'a.png', bytes: png }]))).status, 404);
  t.is((await get('/api/albums/x/photos/')).status, 400);
  t.is((await send('POST', '/api/albums/x/photos/', form(undefined, [{ fileName: 'a.png', bytes: png }]))).status, 400);
});

test('photos PUT: concept, members and sort order change alone; 404 for another album’s photo; 400 for bad bodies and ids', async (t) => {
  const album = await createAlbum();
  const other = await createAlbum();
  const [photo] = await uploadPhotos(album.id, [{ fileName: 'a.png', bytes: png }], { concept: '원래', memberIds: [members[0]!.id] });
  const path = `/api/albums/${album.id}/photos/${photo!.id}`;
  const sortOnly = await send('PUT', path, undefined, { json: { sortOrder: 9 } });
  t.is(sortOnly.status, 200);
  t.deepEqual(sortOnly.body, { ...photo, sortOrder: 9 });
  const changed = await send('PUT', path, undefined, { json: { concept: null, memberIds: [members[1]!.id] } });
  t.deepEqual(changed.body, { ...photo, sortOrder: 9, concept: null, memberIds: [members[1]!.id] });
  t.deepEqual((await get(`/api/albums/${album.id}/photos/`)).body, [changed.body]);

  t.is((await send('PUT', `/api/albums/${other.id}/photos/${photo!.id}`, undefined, { json: { concept: 'x' } })).status, 404);
  t.is((await send('PUT', `/api/albums/${album.id}/photos/999999`, undefined, { json: { concept: 'x' } })).status, 404);
  for (const json of [{ memberIds: [987654] }, { memberIds: 'all' }, { sortOrder: '1' }, { concept: 3 }, { width: 10 }, [1]]) {
    t.is((await send('PUT', path, undefined, { json })).status, 400, JSON.stringify(json));
  }
  t.is((await send('PUT', path, 'not json')).status, 400);
  t.is((await send('PUT', path)).status, 400, 'no body');
  t.is((await send('PUT', `/api/albums/${album.id}/photos/abc`, undefined, { json: {} })).status, 400);
  t.deepEqual((await get(`/api/albums/${album.id}/photos/`)).body, [changed.body]);
});

test('photos DELETE: the record, its image record and three files go; 404 for another album’s photo', async (t) => {
  const album = await createAlbum();
  const other = await createAlbum();
  const [keep, drop] = await uploadPhotos(album.id, [{ fileName: 'a.png', bytes: png }, { fileName: 'b.png', bytes: png }]);
  const imageId = (await db().one('SELECT image_id FROM album_photos WHERE id = $1', [drop!.id])).image_id;
  t.is((await send('DELETE', `/api/albums/${other.id}/photos/${drop!.id}`)).status, 404);
  const response = await send('DELETE', `/api/albums/${album.id}/photos/${drop!.id}`);
  t.is(response.status, 200);
  t.deepEqual(response.body, { success: true });
  for (const url of [drop!.originalUrl, drop!.mediumUrl, drop!.thumbUrl]) t.false(fileExists(url), keyOf(url));
  t.is(await db().oneOrNone('SELECT 1 FROM images WHERE id = $1', [imageId]), null);
  t.deepEqual((await get(`/api/albums/${album.id}/photos/`)).body, [keep]);
  t.is((await send('DELETE', `/api/albums/${album.id}/photos/${drop!.id}`)).status, 404);
  t.is((await send('DELETE', `/api/albums/${album.id}/photos/abc`)).status, 400);
});

// ---- teasers -------------------------------------------------------------------------------------

test('teasers: the bytes decide — a PNG named clip.mp4 is an image through the image pool', async (t) => {
  const album = await createAlbum();
  const teaser = await uploadTeaser(album.id, { fileName: 'clip.mp4', bytes: png, type: 'video/mp4' });
  t.deepEqual(Object.keys(teaser).sort(), ['id', 'kind', 'originalUrl', 'sortOrder', 'thumbUrl']);
  t.is(teaser.kind, 'image');
  t.is(teaser.sortOrder, 1);
  t.regex(keyOf(teaser.originalUrl), new RegExp(`^album/${album.id}/teasers/\\d{13}\\.png$`));
  t.regex(keyOf(teaser.thumbUrl), new RegExp(`^album/${album.id}/teasers/thumb/\\d{13}\\.webp$`));
  const original = await fetch(teaser.originalUrl);
  t.is(original.headers.get('content-type'), 'image/png');
  t.deepEqual(Buffer.from(await original.arrayBuffer()), png);
  t.is(await longSide(new Uint8Array(await (await fetch(teaser.thumbUrl)).arrayBuffer())), 400);
  const record = await db().one('SELECT i.original_key, i.medium_key, i.thumb_key FROM album_teasers a JOIN images i ON i.id = a.image_id WHERE a.id = $1', [teaser.id]);
  t.is(record.original_key, keyOf(teaser.originalUrl));
  t.is((await storedFiles(`album/${album.id}/teasers`)).length, 3);
});

test('teasers: the bytes decide — an MP4 header named x.png is a video, stored as uploaded, without thumbnail', async (t) => {
  const album = await createAlbum();
  const teaser = await uploadTeaser(album.id, { fileName: 'x.png', bytes: mp4, type: 'image/png' }, { sortOrder: 7 });
  t.is(teaser.kind, 'video');
  t.is(teaser.thumbUrl, null);
  t.is(teaser.sortOrder, 7);
  t.regex(keyOf(teaser.originalUrl), new RegExp(`^album/${album.id}/teasers/\\d{13}\\.mp4$`));
  const original = await fetch(teaser.originalUrl);
  t.is(original.headers.get('content-type'), 'video/mp4');
  t.deepEqual(Buffer.from(await original.arrayBuffer()), mp4);
  t.is((await db().one('SELECT image_id FROM album_teasers WHERE id = $1', [teaser.id])).image_id, null);
  t.is((await storedFiles(`album/${album.id}/teasers`)).length, 1);
});

test('teasers: GET lists by sortOrder; DELETE removes the record and files (image: three, video: one); 404s and 400s', async (t) => {
  const album = await createAlbum();
  const other = await createAlbum();
  const video = await uploadTeaser(album.id, { fileName: 'v.mp4', bytes: mp4 });
  const image = await uploadTeaser(album.id, { fileName: 'i.jpg', bytes: jpeg }, { sortOrder: 0 });
  t.is(video.sortOrder, 1);
  const list = await get(`/api/albums/${album.id}/teasers/`);
  t.is(list.status, 200);
  t.deepEqual(list.body, [image, video]);
  const imageId = (await db().one('SELECT image_id FROM album_teasers WHERE id = $1', [image.id])).image_id;

  t.is((await send('DELETE', `/api/albums/${other.id}/teasers/${image.id}`)).status, 404);
  t.is((await send('DELETE', `/api/albums/${album.id}/teasers/abc`)).status, 400);
  t.deepEqual((await send('DELETE', `/api/albums/${album.id}/teasers/${image.id}`)).body, { success: true });
  t.is(await db().oneOrNone('SELECT 1 FROM images WHERE id = $1', [imageId]), null);
  t.false(fileExists(image.originalUrl));
  t.false(fileExists(image.thumbUrl));
  t.is((await storedFiles(`album/${album.id}/teasers`)).length, 1);
  t.is((await send('DELETE', `/api/albums/${album.id}/teasers/${video.id}`)).status, 200);
  t.deepEqual(await storedFiles(`album/${album.id}/teasers`), []);
  t.deepEqual((await get(`/api/albums/${album.id}/teasers/`)).body, []);
  t.is((await send('DELETE', `/api/albums/${album.id}/teasers/${video.id}`)).status, 404);

  t.is((await get('/api/albums/999999/teasers/')).status, 404);
  t.is((await get('/api/albums/abc/teasers/')).status, 400);
  t.is((await send('POST', '/api/albums/999999/teasers/', form(undefined, [{ fileName: 'a.png', bytes: png }]))).status, 404);
});

test('OpenAPI: the album routes are documented, the teaser route says videos get no thumbnail', async (t) => {
  const doc = (await get('/api/openapi.json')).body;
  for (const path of ['/api/albums', '/api/albums/{id}', '/api/albums/by-name/{name}', '/api/albums/by-name/{name}/track/{trackTitle}', '/api/albums/{id}/photos/{photoId}', '/api/albums/{id}/teasers/{teaserId}']) {
    t.truthy(doc.paths[path], path);
  }
  t.regex(doc.paths['/api/albums/{id}/teasers'].post.description, /no frame-extraction tool/);
});
