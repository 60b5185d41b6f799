// Place search for the admin console's venue picker on the real server against a local fake of the
// map platform's keyword search; a service without the map configured; one whose map platform
// cannot be reached.
import test from 'ava';
import { freePort } from '../shared/db/embedded-postgres.ts';
import { startFakeMapPlatform, type FakeMapPlatform } from './fakes/map-platform.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

const KEY = 'test-map-key';
let fake: FakeMapPlatform;
let service: TestService;
let unconfigured: TestService;
let unreachable: TestService;
const tokens = new Map<TestService, string>();

test.before(async () => {
  fake = await startFakeMapPlatform(KEY);
  fake.places.push(
    { id: '8120394', place_name: '올림픽공원 KSPO DOME', address_name: '서울 송파구 방이동 88', road_address_name: '서울 송파구 올림픽로 424', x: '127.12716', y: '37.51951' },
    { id: '27412345', place_name: '블루스퀘어 마스터카드홀', address_name: '서울 용산구 한남동 727-56', road_address_name: '서울 용산구 이태원로 294', x: '127.00276', y: '37.54071' },
  );
  [service, unconfigured, unreachable] = await Promise.all([
    startTestService({ MAP_API_URL: fake.url, MAP_API_KEY: KEY }),
    startTestService(),
    freePort().then((port) => startTestService({ MAP_API_URL: `http://127.0.0.1:${port}`, MAP_API_KEY: KEY })),
  ]);
  for (const s of [service, unconfigured, unreachable]) tokens.set(s, await adminToken(s.url));
});
test.after.always(async () => {
  await Promise.all([service?.stop(), unconfigured?.stop(), unreachable?.stop(), fake?.close()]);
});

const places = (s: TestService, query: string | null, auth = true) =>
  call(s.url, 'GET', `/api/admin/map/places${query === null ? '' : `?query=${encodeURIComponent(query)}`}`, { token: auth ? tokens.get(s) : undefined });

test('places in the venue shape: lat from y, lng from x, map_id the place id; the key goes in the KakaoAK header', async (t) => {
  const response = await places(service, '올림픽공원');
  t.is(response.status, 200);
  t.deepEqual(response.body, { places: [{ name: '올림픽공원 KSPO DOME', address: '서울 송파구 방이동 88', roadAddress: '서울 송파구 올림픽로 424', lat: 37.51951, lng: 127.12716, map_id: '8120394' }] });
  const seen = fake.requests.find((request) => request.query === '올림픽공원')!;
  t.is(seen.authorization, `KakaoAK ${KEY}`);
  t.is(seen.path, '/v2/local/search/keyword.json');
  t.deepEqual((await places(service, '없는 장소')).body, { places: [] });
});

test('bad input: no query or a blank one 400, a query over 100 characters 400, no token 401', async (t) => {
  t.is((await places(service, null)).status, 400);
  t.regex((await places(service, '   ')).body.error, /입력해 주세요/);
  t.is((await places(service, '가'.repeat(101))).status, 400);
  t.is((await places(service, '올림픽공원', false)).status, 401);
});

test('not configured: 503 with a Korean message naming the variables', async (t) => {
  const response = await places(unconfigured, '올림픽공원');
  t.is(response.status, 503);
  t.regex(response.body.error, /지도 검색이 설정되지 않았습니다.*MAP_API_URL/);
});

test.serial('the platform failing: 502 with a Korean message', async (t) => {
  fake.failNext(500);
  const response = await places(service, '블루스퀘어');
  t.is(response.status, 502);
  t.regex(response.body.error, /지도 플랫폼 요청이 실패했습니다 \(HTTP 500\)/);
});

test('an unreachable platform: 502, then after 5 failures in a row the circuit opens: 503 with Retry-After', async (t) => {
  for (let i = 0; i < 5; i++) {
    const response = await places(unreachable, '올림픽공원');
    t.is(response.status, 502);
    t.regex(response.body.error, /지도 플랫폼에 연결하지 못했습니다/);
  }
  const refused = await places(unreachable, '올림픽공원');
  t.is(refused.status, 503);
  t.regex(refused.body.error, /잠시 멈췄습니다/);
  t.truthy(refused.headers.get('retry-after'));
});
