// Event administration (api-service.md 4.7) and the administrator login it needs, over real HTTP
// with real multipart bodies and real images, real PostgreSQL, the real image pool and storage.
import test from 'ava';
import jwt from 'jsonwebtoken';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { countRows, insertMember } from './helpers/factory.ts';
import { jpegImage, longSide, pngImage, webpImage } from './helpers/images.ts';
import { ADMIN, adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let token: string;
let members: Array<{ id: number; name: string }>;
let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;

test.before(async () => {
  service = await startTestService();
  token = await adminToken(service.url);
  members = [await insertMember(db(), { name: '이채영' }), await insertMember(db(), { name: '송하영' }), await insertMember(db(), { name: '백지헌' })];
  [png, jpeg, webp] = await Promise.all([pngImage(), jpegImage(), webpImage()]);
});
test.after.always(async () => {
  await service?.stop();
});

const db = () => service.running.services.db;
const storageDir = () => join(service.dataDir, 'storage', 'media');

type FilePart = { name?: string; fileName: string; bytes: Uint8Array; type?: string };

function form(payload: unknown, files: FilePart[] = []): FormData {
  const data = new FormData();
  if (payload !== undefined) data.append('payload', typeof payload === 'string' ? payload : JSON.stringify(payload));
  for (const file of files) data.append(file.name ?? 'posters', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.fileName);
  return data;
}

const send = (method: string, path: string, body: FormData | string | undefined, options: { token?: string | null; headers?: Record<string, string> } = {}) =>
  call(service.url, method, path, { body, token: options.token === null ? undefined : (options.token ?? token), headers: options.headers });

let n = 0;
const eventPayload = (overrides: Record<string, unknown> = {}) => ({
  title: `축제 공연 ${++n}`,
  date: '2026-05-14',
  time: '19:30',
  schoolName: '한국외국어대학교',
  memberIds: [members[0]!.id, members[1]!.id],
  venue: { name: `글로벌캠퍼스 대운동장 ${n}`, address: '경기 용인시 처인구 모현읍 외대로 81', roadAddress: '외대로 81', lat: 37.33, lng: 127.27, map_id: `map-${n}-${Date.now()}` },
  postUrls: ['https://example.com/post/1'],
  ...overrides,
});

async function createEvent(payload = eventPayload(), files: FilePart[] = []) {
  const response = await send('POST', '/api/admin/events/', form(payload, files));
  if (response.status !== 201) throw new Error(`create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
}

const getEvent = (id: number) => call(service.url, 'GET', `/api/admin/events/${id}`, { token });

/** Everything an event write could leave behind, to compare before and after a refused request. */
async function snapshot() {
  const tables = await Promise.all((['schedules', 'events', 'images', 'schedule_members', 'schedule_images', 'venues', 'activity_log', 'outbox'] as const).map((t) => countRows(db(), t)));
  // Files, not directories: a bucket directory made for a refused write may stay (the storage makes each once).
  const entries = existsSync(storageDir()) ? await readdir(storageDir(), { recursive: true, withFileTypes: true }) : [];
  return { tables, files: entries.filter((entry) => entry.isFile()).length };
}

// ---- administrator authentication ------------------------------------------------------------------

test('admin login: 200 {token, user}; the token is HS256 with audience admin for 24 hours', async (t) => {
  const response = await call(service.url, 'POST', '/api/auth/login', { json: ADMIN });
  t.is(response.status, 200);
  t.deepEqual(Object.keys(response.body).sort(), ['token', 'user']);
  t.is(response.body.user.username, ADMIN.username);
  const decoded = jwt.decode(response.body.token, { complete: true })!;
  const claims = decoded.payload as jwt.JwtPayload;
  t.is(decoded.header.alg, 'HS256');
  t.is(claims.aud, 'admin');
  t.is(claims.exp! - claims.iat!, 24 * 3600);
  const verify = await call(service.url, 'GET', '/api/auth/verify', { token: response.body.token });
  t.deepEqual(verify.body, { valid: true, user: response.body.user });
});

test('admin login: a missing field gives 400; a wrong password and an unknown user give one 401 message', async (t) => {
  t.is((await call(service.url, 'POST', '/api/auth/login', { json: { username: 'admin' } })).status, 400);
  const wrong = await call(service.url, 'POST', '/api/auth/login', { json: { username: 'admin', password: 'nope-nope' }, headers: { 'x-forwarded-for': '198.51.100.1' } });
  const unknown = await call(service.url, 'POST', '/api/auth/login', { json: { username: 'ghost', password: 'nope-nope' }, headers: { 'x-forwarded-for': '198.51.100.1' } });
  t.is(wrong.status, 401);
  t.is(unknown.status, 401);
  t.is(wrong.body.error, unknown.body.error);
});

test('admin login: 5 failures lock the IP (429) separately from /auth/login', async (t) => {
  const ip = '198.51.100.77';
  for (let i = 0; i < 5; i++) await call(service.url, 'POST', '/api/auth/login', { json: { username: 'admin', password: 'wrong-one' }, headers: { 'x-forwarded-for': ip } });
  const locked = await call(service.url, 'POST', '/api/auth/login', { json: ADMIN, headers: { 'x-forwarded-for': ip } });
  t.is(locked.status, 429);
  t.regex(locked.body.error, /\d+분/);
  // The account service counts on its own: this IP is not locked there.
  t.not((await call(service.url, 'POST', '/auth/login', { json: { email: 'a@b.co', password: 'x' }, headers: { 'x-forwarded-for': ip } })).status, 429);
});

test('admin routes: no token, a bad token, an expired token, a user token all give 401', async (t) => {
  const expired = jwt.sign({ id: 1, username: 'admin' }, service.config.jwtSecret!, { algorithm: 'HS256', audience: 'admin', expiresIn: -5 });
  const userToken = jwt.sign({ id: 1, email: 'a@b.co', isAdmin: true }, service.config.jwtSecret!, { algorithm: 'HS256', audience: 'user' });
  const hs512 = jwt.sign({ id: 1, username: 'admin' }, service.config.jwtSecret!, { algorithm: 'HS512', audience: 'admin' });
  for (const bad of [null, 'garbage', expired, userToken, hs512]) {
    for (const [method, path] of [['GET', '/api/admin/events/1'], ['POST', '/api/admin/events'], ['PUT', '/api/admin/events/1'], ['DELETE', '/api/admin/events/1'], ['GET', '/api/auth/verify']]) {
      const response = await send(method!, path!, method === 'GET' ? undefined : form(eventPayload()), { token: bad });
      t.is(response.status, 401, `${method} ${path} with ${String(bad).slice(0, 10)}`);
      t.truthy(response.body.error);
    }
  }
});

// ---- POST ------------------------------------------------------------------------------------------

test.serial('POST rule 1: no payload part gives 400', async (t) => {
  const before = await snapshot();
  const response = await send('POST', '/api/admin/events', form(undefined, [{ fileName: 'a.png', bytes: png }]));
  t.is(response.status, 400);
  t.truthy(response.body.error);
  t.deepEqual(await snapshot(), before);
});

for (const field of ['title', 'date', 'schoolName'] as const) {
  test.serial(`POST rule 2: missing ${field} gives 400 and stores nothing`, async (t) => {
    const before = await snapshot();
    const payload: Record<string, unknown> = eventPayload();
    delete payload[field];
    t.is((await send('POST', '/api/admin/events', form(payload))).status, 400);
    t.is((await send('POST', '/api/admin/events', form({ ...eventPayload(), [field]: '' }))).status, 400);
    t.deepEqual(await snapshot(), before);
  });
}

test.serial('POST rule 3: a subtype not in the list gives 400', async (t) => {
  const before = await snapshot();
  t.is((await send('POST', '/api/admin/events', form(eventPayload({ subtype: 'highschool' })))).status, 400);
  t.deepEqual(await snapshot(), before);
});

test.serial('POST rule 4: a missing venue gives 400', async (t) => {
  const before = await snapshot();
  const payload: Record<string, unknown> = eventPayload();
  delete payload.venue;
  t.is((await send('POST', '/api/admin/events', form(payload))).status, 400);
  t.deepEqual(await snapshot(), before);
});

for (const [name, overrides] of [
  ['memberIds as a string', { memberIds: '1' }],
  ['an impossible date', { date: '2024-13-45' }],
  ['a date of another format', { date: '2024/05/01' }],
  ['time 25:00', { time: '25:00' }],
  ['a numeric title', { title: 42 }],
  ['postUrls with a javascript: URL', { postUrls: ['javascript:alert(1)'] }],
  ['a venue without a name', { venue: { address: 'x' } }],
  ['a latitude out of range', { venue: { name: 'x', lat: 123 } }],
  ['duplicate member ids', { memberIds: [1, 1] }],
  ['unknown member ids', { memberIds: [999999] }],
] as const) {
  test.serial(`POST: ${name} gives 400 and stores nothing`, async (t) => {
    const before = await snapshot();
    const response = await send('POST', '/api/admin/events', form(eventPayload(overrides as Record<string, unknown>)));
    t.is(response.status, 400, JSON.stringify(response.body));
    t.truthy(response.body.error);
    t.deepEqual(await snapshot(), before);
  });
}

test.serial('POST: a payload that is not JSON, a second payload, an unknown text part give 400', async (t) => {
  const before = await snapshot();
  t.is((await send('POST', '/api/admin/events', form('{"title": '))).status, 400);
  const twice = form(eventPayload());
  twice.append('payload', JSON.stringify(eventPayload()));
  t.is((await send('POST', '/api/admin/events', twice)).status, 400);
  const extra = form(eventPayload());
  extra.append('note', 'hello');
  t.is((await send('POST', '/api/admin/events', extra)).status, 400);
  // A JSON body is the payload alone (test/json-bodies.test.ts): one that does not parse is 400.
  t.is((await send('POST', '/api/admin/events', '{"title": ', { headers: { 'content-type': 'application/json' } })).status, 400);
  t.deepEqual(await snapshot(), before);
});

test.serial('POST: a text file posing as an image gives 400 and leaves no schedule and no file', async (t) => {
  const before = await snapshot();
  const response = await send('POST', '/api/admin/events', form(eventPayload(), [
    { fileName: 'ok.png', bytes: png, type: 'image/png' },
    { fileName: 'fake.jpg', bytes: Buffer.from('this is not an image at all'), type: 'image/jpeg' },
  ]));
  t.is(response.status, 400);
  t.truthy(response.body.error);
  t.deepEqual(await snapshot(), before);
});

test.serial('POST: a write that fails after its posters were stored (its activity-log entry here) answers 500 and leaves no schedule and no file', async (t) => {
  const payload = eventPayload({ title: '실패하는 기록 ' + Date.now() });
  // The activity-log insert is the batch's fourth statement, after the images, the event and the members.
  await db().none(
    `CREATE FUNCTION refuse_activity() RETURNS trigger LANGUAGE plpgsql AS $body$BEGIN IF NEW.summary LIKE '%실패하는 기록%' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END$body$;
     CREATE TRIGGER refuse_activity BEFORE INSERT ON activity_log FOR EACH ROW EXECUTE FUNCTION refuse_activity()`,
  );
  t.teardown(() => db().none('DROP TRIGGER refuse_activity ON activity_log; DROP FUNCTION refuse_activity()'));
  const before = await snapshot();
  const response = await send('POST', '/api/admin/events', form(payload, [{ fileName: 'a.png', bytes: png, type: 'image/png' }, { fileName: 'b.jpg', bytes: jpeg, type: 'image/jpeg' }]));
  t.is(response.status, 500);
  t.truthy(response.body.error);
  t.deepEqual(await snapshot(), before);
});

test.serial('POST: a truncated multipart body gives 400 and stores nothing', async (t) => {
  const before = await snapshot();
  const boundary = '----test-boundary-123';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="payload"\r\n\r\n${JSON.stringify(eventPayload())}\r\n--${boundary}\r\nContent-Disposition: form-data; name="posters"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${png.subarray(0, 200).toString('latin1')}`;
  const response = await send('POST', '/api/admin/events', body, { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  t.is(response.status, 400);
  t.truthy(response.body.error);
  t.deepEqual(await snapshot(), before);
});

test.serial('POST: a poster over the file size limit gives 413', async (t) => {
  const before = await snapshot();
  const response = await send('POST', '/api/admin/events', form(eventPayload(), [{ fileName: 'huge.png', bytes: Buffer.alloc(21 * 1024 * 1024, 1) }]));
  t.is(response.status, 413);
  t.deepEqual(await snapshot(), before);
});

test('POST rules 5-9: 201 {id}; category 11; event record; members linked; posters named NN.ext with three sizes', async (t) => {
  const payload = eventPayload();
  const id = await createEvent(payload, [
    { fileName: 'poster.JPG', bytes: jpeg },
    { fileName: 'second.png', bytes: png },
    { fileName: 'no-extension', bytes: webp },
  ]);
  t.true(Number.isInteger(id));
  const row = await db().one("SELECT category_id, title, to_char(date, 'YYYY-MM-DD') AS date, to_char(time, 'HH24:MI') AS time FROM schedules WHERE id = $1", [id]);
  t.deepEqual(row, { category_id: 11, title: payload.title, date: payload.date, time: payload.time });
  const event = await db().one('SELECT subtype, school_name, post_urls, poster_image_ids FROM events WHERE schedule_id = $1', [id]);
  t.is(event.subtype, 'university');
  t.deepEqual(event.post_urls, payload.postUrls);
  t.is(event.poster_image_ids.length, 3);
  const keys = await db().any('SELECT i.original_key, i.medium_key, i.thumb_key FROM unnest($1::int[]) WITH ORDINALITY p(id, ord) JOIN images i ON i.id = p.id ORDER BY p.ord', [event.poster_image_ids]);
  t.deepEqual(keys.map((k) => k.original_key), [`event/${id}/poster/01.jpeg`, `event/${id}/poster/02.png`, `event/${id}/poster/03.webp`]);
  for (const key of keys) {
    for (const file of [key.original_key, key.medium_key, key.thumb_key]) t.true(existsSync(join(storageDir(), file)), file);
  }
  const detail = (await getEvent(id)).body;
  t.deepEqual(detail.memberIds, payload.memberIds);
  t.is(detail.posters.length, 3);
  const medium = await fetch(detail.posters[0].mediumUrl);
  t.is(medium.headers.get('content-type'), 'image/webp');
  t.is(await longSide(new Uint8Array(await medium.arrayBuffer())), 800);
  const thumb = await fetch(detail.posters[0].thumbUrl);
  t.is(await longSide(new Uint8Array(await thumb.arrayBuffer())), 400);
  const original = await fetch(detail.posters[0].originalUrl);
  t.is(original.headers.get('content-type'), 'image/jpeg');
  t.deepEqual(Buffer.from(await original.arrayBuffer()), jpeg);
});

test('POST rule 5: post_urls and poster_image_ids are stored null when empty; time null when empty', async (t) => {
  const id = await createEvent(eventPayload({ postUrls: [], time: '' }));
  const event = await db().one('SELECT post_urls, poster_image_ids FROM events WHERE schedule_id = $1', [id]);
  t.deepEqual(event, { post_urls: null, poster_image_ids: null });
  t.is((await db().one('SELECT time FROM schedules WHERE id = $1', [id])).time, null);
  const detail = (await getEvent(id)).body;
  t.is(detail.time, '');
  t.deepEqual(detail.postUrls, []);
  t.deepEqual(detail.posters, []);
});

test('POST rule 5: the venue is matched on map_id, else on name + address', async (t) => {
  const mapId = `kakao-${Date.now()}`;
  const a = await createEvent(eventPayload({ venue: { name: '대강당', address: '서울', map_id: mapId } }));
  const b = await createEvent(eventPayload({ venue: { name: '대강당 (새 이름)', address: '서울', map_id: mapId } }));
  const venueA = (await getEvent(a)).body.venue;
  const venueB = (await getEvent(b)).body.venue;
  t.is(venueA.id, venueB.id);
  t.is(venueB.name, '대강당 (새 이름)');
  const c = await createEvent(eventPayload({ venue: { name: '노천극장', address: '서울 서대문구' } }));
  const d = await createEvent(eventPayload({ venue: { name: '노천극장', address: '서울 서대문구' } }));
  const e = await createEvent(eventPayload({ venue: { name: '노천극장', address: '부산' } }));
  const [vc, vd, ve] = await Promise.all([c, d, e].map(async (id) => (await getEvent(id)).body.venue.id));
  t.is(vc, vd);
  t.not(vc, ve);
});

test('GET: 404 for an unknown id and for a schedule that is not an event; 400 for a malformed id', async (t) => {
  t.is((await getEvent(999999)).status, 404);
  const { id } = await db().one("INSERT INTO schedules (category_id, title, date) VALUES (1, '방송', '2026-01-01') RETURNING id");
  t.is((await getEvent(id)).status, 404);
  t.is((await call(service.url, 'GET', '/api/admin/events/abc', { token })).status, 400);
});

test('GET: the documented shape, venue with roadAddress and map_id', async (t) => {
  const payload = eventPayload();
  const id = await createEvent(payload);
  const body = (await getEvent(id)).body;
  t.deepEqual(Object.keys(body).sort(), ['date', 'id', 'memberIds', 'postUrls', 'posters', 'schoolName', 'subtype', 'time', 'title', 'venue']);
  t.deepEqual(Object.keys(body.venue).sort(), ['address', 'id', 'lat', 'lng', 'map_id', 'name', 'roadAddress']);
  t.is(body.venue.roadAddress, payload.venue.roadAddress);
  t.is(body.schoolName, payload.schoolName);
});

// ---- PUT -------------------------------------------------------------------------------------------

test('PUT rule 1 before rule 2: no payload gives 400 even for an unknown id; an unknown id gives 404', async (t) => {
  t.is((await send('PUT', '/api/admin/events/999999', form(undefined))).status, 400);
  const response = await send('PUT', '/api/admin/events/999999', form({ title: 'x' }));
  t.is(response.status, 404);
  t.truthy(response.body.error);
});

test('PUT rules 3-5: fields updated, members replaced, kept posters then new ones named <ms><position>.ext, dropped posters removed with files', async (t) => {
  const id = await createEvent(eventPayload(), [{ fileName: 'a.png', bytes: png }, { fileName: 'b.jpg', bytes: jpeg }, { fileName: 'c.webp', bytes: webp }]);
  const before = (await getEvent(id)).body;
  const [p1, p2, p3] = before.posters.map((p: { id: number }) => p.id);
  const droppedKeys = await db().any('SELECT original_key, medium_key, thumb_key FROM images WHERE id = $1', [p2]);
  const response = await send('PUT', `/api/admin/events/${id}`, form({
    title: '수정된 제목', date: '2026-06-01', time: '', schoolName: '성균관대학교', memberIds: [members[2]!.id], postUrls: [],
    venue: { name: '새 장소', address: '수원' }, keepPosterIds: [p3, p1],
  }, [{ fileName: 'new.JPG', bytes: jpeg }]));
  t.is(response.status, 200);
  t.deepEqual(response.body, { id });
  const after = (await getEvent(id)).body;
  t.is(after.title, '수정된 제목');
  t.is(after.date, '2026-06-01');
  t.is(after.time, '');
  t.is(after.schoolName, '성균관대학교');
  t.deepEqual(after.memberIds, [members[2]!.id]);
  t.deepEqual(after.postUrls, []);
  t.is(after.venue.name, '새 장소');
  t.is(after.posters.length, 3);
  t.deepEqual(after.posters.slice(0, 2).map((p: { id: number }) => p.id), [p3, p1]);
  const newKey = (await db().one('SELECT original_key FROM images WHERE id = $1', [after.posters[2].id])).original_key;
  t.regex(newKey, new RegExp(`^event/${id}/poster/\\d{13}1\\.jpeg$`));
  t.is(await db().oneOrNone('SELECT 1 FROM images WHERE id = $1', [p2]), null);
  for (const file of Object.values(droppedKeys[0])) t.false(existsSync(join(storageDir(), file as string)), `${file} deleted`);
  t.is((await db().one('SELECT post_urls FROM events WHERE schedule_id = $1', [id])).post_urls, null);
});

test('venue: an address, road address or coordinate sent as null keeps the shared venue’s stored value (docs/decisions.md)', async (t) => {
  const full = eventPayload();
  const first = await createEvent(full);
  const venue = full.venue as Record<string, unknown>;
  const nulls = { name: venue.name, address: null, roadAddress: null, lat: null, lng: null, map_id: venue.map_id };
  const second = await send('POST', '/api/admin/events/', form(eventPayload({ venue: nulls })));
  t.is(second.status, 201, JSON.stringify(second.body));
  t.is((await send('PUT', `/api/admin/events/${first}`, form({ venue: nulls }))).status, 200);
  for (const id of [first, second.body.id as number]) {
    t.like((await getEvent(id)).body.venue, { address: venue.address, roadAddress: venue.roadAddress, lat: venue.lat, lng: venue.lng }, `event ${id}`);
  }
  // A new venue sent with nulls stores empty addresses and no coordinates.
  const fresh = await createEvent(eventPayload({ venue: { name: `새 장소 ${Date.now()}`, address: null, roadAddress: null, lat: null, lng: null } }));
  t.like((await getEvent(fresh)).body.venue, { address: '', roadAddress: '', lat: null, lng: null });
});

test('school name: a cleared school name is "" in the item’s schoolName and source.name and in the administrator’s view', async (t) => {
  const id = await createEvent(eventPayload({ date: '2026-07-09' }));
  for (const cleared of [{ schoolName: null }, {}]) {
    t.is((await send('PUT', `/api/admin/events/${id}`, form({ ...cleared, date: '2026-07-09' }))).status, 200);
    const detail = (await call(service.url, 'GET', `/api/schedules/${id}`)).body;
    t.is(detail.schoolName, '', JSON.stringify(cleared));
    t.is(detail.source.name, '');
    const item = (await call(service.url, 'GET', '/api/schedules/?year=2026&month=7')).body.schedules.find((s: { id: number }) => s.id === id);
    t.is(item.schoolName, '');
    t.is(item.source.name, '');
    t.is((await getEvent(id)).body.schoolName, '');
  }
});

test('PUT rule 3: no venue sent makes venue_id null; no posters kept makes poster_image_ids null', async (t) => {
  const id = await createEvent(eventPayload(), [{ fileName: 'a.png', bytes: png }]);
  t.is((await send('PUT', `/api/admin/events/${id}`, form({ title: '장소 없음' }))).status, 200);
  const event = await db().one('SELECT venue_id, poster_image_ids FROM events WHERE schedule_id = $1', [id]);
  t.deepEqual(event, { venue_id: null, poster_image_ids: null });
  t.is((await getEvent(id)).body.venue, null);
});

test.serial('PUT: keepPosterIds naming another event’s poster, duplicates, or wrong types give 400 and change nothing', async (t) => {
  const mine = await createEvent(eventPayload(), [{ fileName: 'a.png', bytes: png }]);
  const other = await createEvent(eventPayload(), [{ fileName: 'b.png', bytes: png }]);
  const mineBefore = (await getEvent(mine)).body;
  const otherPoster = (await getEvent(other)).body.posters[0].id;
  const snap = await snapshot();
  for (const payload of [
    { keepPosterIds: [otherPoster] },
    { keepPosterIds: [mineBefore.posters[0].id, mineBefore.posters[0].id] },
    { keepPosterIds: 'all' },
    { memberIds: '1' },
    { date: '2024-13-45' },
    { time: '25:00' },
    { subtype: 'club' },
    { memberIds: [987654] },
  ]) {
    const response = await send('PUT', `/api/admin/events/${mine}`, form(payload), {});
    t.is(response.status, 400, JSON.stringify(payload));
  }
  t.deepEqual(await snapshot(), snap);
  t.deepEqual((await getEvent(mine)).body, mineBefore);
});

// ---- DELETE ----------------------------------------------------------------------------------------

test('DELETE: 404 for an unknown event; 200 removes the schedule, event record, member and image links, images and files', async (t) => {
  t.is((await call(service.url, 'DELETE', '/api/admin/events/999999', { token })).status, 404);
  const id = await createEvent(eventPayload(), [{ fileName: 'a.png', bytes: png }, { fileName: 'b.png', bytes: png }]);
  const imageIds = (await getEvent(id)).body.posters.map((p: { id: number }) => p.id);
  const keys = (await db().any('SELECT original_key, medium_key, thumb_key FROM images WHERE id = ANY($1::int[])', [imageIds])).flatMap((r) => Object.values(r) as string[]);
  const response = await call(service.url, 'DELETE', `/api/admin/events/${id}`, { token });
  t.is(response.status, 200);
  t.deepEqual(response.body, { success: true });
  for (const table of ['schedules', 'events', 'schedule_members', 'schedule_images']) {
    const column = table === 'schedules' ? 'id' : 'schedule_id';
    t.is((await db().one(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [id])).n, 0, table);
  }
  t.is((await db().one('SELECT count(*)::int AS n FROM images WHERE id = ANY($1::int[])', [imageIds])).n, 0);
  for (const key of keys) t.false(existsSync(join(storageDir(), key)), key);
  t.is((await getEvent(id)).status, 404);
  t.is((await call(service.url, 'DELETE', `/api/admin/events/${id}`, { token })).status, 404);
});

// ---- side effects (section 6) ---------------------------------------------------------------------

test('section 6: create, update and delete each write an activity-log entry naming the title, and an outbox entry', async (t) => {
  const payload = eventPayload({ title: '활동 기록 확인용 행사' });
  const id = await createEvent(payload);
  await send('PUT', `/api/admin/events/${id}`, form({ title: '활동 기록 확인용 행사 (수정)' }));
  await call(service.url, 'DELETE', `/api/admin/events/${id}`, { token });
  const log = await db().any('SELECT actor, action, category, target_type, target_id, summary FROM activity_log WHERE target_id = $1 ORDER BY id', [String(id)]);
  t.deepEqual(log.map((e) => [e.actor, e.action, e.category, e.target_type]), [
    ['admin', 'create', 'schedule', 'event_schedule'],
    ['admin', 'update', 'schedule', 'event_schedule'],
    ['admin', 'delete', 'schedule', 'event_schedule'],
  ]);
  t.true(log[0].summary.includes('활동 기록 확인용 행사'));
  t.true(log[1].summary.includes('(수정)'));
  const outbox = await db().any("SELECT topic, key, payload FROM outbox WHERE key = $1 ORDER BY id", [String(id)]);
  t.deepEqual(outbox.map((e) => [e.topic, e.payload.action]), [['schedule.changed', 'create'], ['schedule.changed', 'update'], ['schedule.changed', 'delete']]);
});

test('rule 7: right after create, a search by part of the school name finds the event; after update by the new name', async (t) => {
  const id = await createEvent(eventPayload({ schoolName: '한국외국어대학교', title: `검색 확인 ${Date.now()}` }));
  const search = service.running.services.search;
  t.true((await search.search('외대', { offset: 0, limit: 100 })).ids.includes(id), 'short form (name resolution)');
  t.true((await search.search('외국어', { offset: 0, limit: 100 })).ids.includes(id), 'a part of the full name');
  await send('PUT', `/api/admin/events/${id}`, form({ schoolName: '성균관대학교' }));
  t.true((await search.search('성대', { offset: 0, limit: 100 })).ids.includes(id));
  t.false((await search.search('한국외국어대학교', { offset: 0, limit: 100 })).ids.includes(id));
});

test('rule 7: every write invalidates the cached months of the old and the new date', async (t) => {
  const cache = service.running.services.monthlyCache;
  const fill = (year: number, month: number) => cache.set(year, month, { body: '{}', etag: '"x"' }, cache.version(year, month));
  fill(2027, 3);
  const id = await createEvent(eventPayload({ date: '2027-03-10' }));
  t.is(cache.get(2027, 3), undefined, 'create');
  fill(2027, 3);
  fill(2027, 4);
  await send('PUT', `/api/admin/events/${id}`, form({ date: '2027-04-02' }));
  t.is(cache.get(2027, 3), undefined, 'update: old month');
  t.is(cache.get(2027, 4), undefined, 'update: new month');
  fill(2027, 4);
  await call(service.url, 'DELETE', `/api/admin/events/${id}`, { token });
  t.is(cache.get(2027, 4), undefined, 'delete');
});

test('storage: traversal outside the bucket gives 404', async (t) => {
  for (const path of ['/storage/media/..%2f..%2fjwt-secret', '/storage/media/%2e%2e/%2e%2e/jwt-secret', '/storage/other/x.png', '/storage/media/']) {
    t.is((await fetch(service.url + path)).status, 404, path);
  }
});
