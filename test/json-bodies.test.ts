// Every write that takes a multipart `payload` part with optional files also takes that payload
// alone as an application/json body, as the OpenAPI document declares (the same named schema for
// both): schedules, events, albums and members. The files-only uploads (photos, teasers) stay
// multipart. A JSON body is checked like the payload part and is limited to 1 MB.
import test from 'ava';
import { insertMember } from './helpers/factory.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let token: string;

test.before(async () => {
  service = await startTestService();
  token = await adminToken(service.url);
});

test.after.always(async () => {
  await service?.stop();
});

const json = (method: string, path: string, body: unknown) => call(service.url, method, path, { json: body, token });

test('the document declares application/json beside multipart for exactly these writes', async (t) => {
  const document = (await call(service.url, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>> };
  const both = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).filter(([, operation]) => operation.requestBody?.content['multipart/form-data'] && operation.requestBody.content['application/json']).map(([method]) => `${method} ${path}`),
  ).sort();
  t.deepEqual(both, [
    'post /api/admin/events', 'post /api/albums', 'post /api/schedules',
    'put /api/admin/events/{id}', 'put /api/albums/{id}', 'put /api/members/{name}', 'put /api/schedules/{id}',
  ]);
});

test('events: created and replaced through a JSON body', async (t) => {
  const created = await json('POST', '/api/admin/events', { title: 'JSON 축제', date: '2031-05-20', schoolName: '한빛대학교', venue: { name: '대운동장' } });
  t.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as number;
  const updated = await json('PUT', `/api/admin/events/${id}`, { title: 'JSON 축제 (변경)', venue: { name: '체육관' } });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  const read = await call(service.url, 'GET', `/api/admin/events/${id}`, { token });
  t.like(read.body, { title: 'JSON 축제 (변경)', date: '2031-05-20', venue: { name: '체육관' } });
  // The same rules as the payload part: the venue is required at creation.
  const noVenue = await json('POST', '/api/admin/events', { title: '장소 없음', date: '2031-05-21', schoolName: '한빛대학교' });
  t.is(noVenue.status, 400);
});

test('albums: created and updated through a JSON body; unknown fields are refused', async (t) => {
  const created = await json('POST', '/api/albums', { title: 'JSON 앨범', releaseDate: '2031-03-01' });
  t.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as number;
  const updated = await json('PUT', `/api/albums/${id}`, { title: 'JSON 앨범 리마스터' });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body, { id, title: 'JSON 앨범 리마스터' });
  const unknown = await json('POST', '/api/albums', { title: '오타 앨범', titel: 'x' });
  t.is(unknown.status, 400);
  t.is(unknown.body.code, 'invalid_body');
});

test('members: updated through a JSON body', async (t) => {
  const member = await insertMember(service.running.services.db);
  const updated = await json('PUT', `/api/members/${encodeURIComponent(member.name)}`, { position: '메인보컬' });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body, { name: member.name, position: '메인보컬' });
});

test('a JSON body: empty is 400, over 1 MB is 413, and the photo upload still wants its files', async (t) => {
  const empty = await call(service.url, 'POST', '/api/admin/events', { token, headers: { 'content-type': 'application/json' } });
  t.is(empty.status, 400);
  const big = await json('POST', '/api/albums', { title: '큰 앨범', description: 'ㄱ'.repeat(400_000) });
  t.is(big.status, 413);
  const album = await json('POST', '/api/albums', { title: '사진 없는 앨범' });
  const photos = await json('POST', `/api/albums/${album.body.id as number}/photos`, { concept: '파일 없음' });
  t.is(photos.status, 400);
});
