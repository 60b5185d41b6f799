// The edge against hostile or unusual input, on the real service: pipelined requests after a POST
// over raw sockets (docs/security.md, "Pipelining"), control characters in administrator text.
import test from 'ava';
import { connect } from 'node:net';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;

test.before(async () => {
  service = await startTestService();
});
test.after.always(async () => {
  await service?.stop();
});

/** Writes `payload` in one write on a fresh connection; resolves with what came back once the server closed it or `waitMs` passed. */
function exchange(payload: string, waitMs: number) {
  return new Promise<{ statuses: number[]; closed: boolean; ms: number }>((resolve, reject) => {
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
    let received = '';
    const startedAt = Date.now();
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ statuses: [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])), closed, ms: Date.now() - startedAt });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => done(true));
    socket.on('error', reject);
    socket.on('connect', () => socket.write(payload));
  });
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`;
const post = (path: string, body: string) => `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

test('pipelining: a GET after a POST answered without waiting on anything is answered in order', async (t) => {
  // 404 before the body is read; 400 once the body is read (no database involved).
  for (const first of [post('/no-such-route', '{"a":1}'), post('/api/schedules/suggestions/save', '{}')]) {
    const result = await exchange(first + get('/healthz'), 5_000);
    t.is(result.statuses.length, 2, JSON.stringify(result));
    t.true(result.statuses[0]! >= 400 && result.statuses[0]! < 500);
    t.is(result.statuses[1], 200);
  }
});

test('pipelining: a request after a POST still being answered is never left in silence: the connection is closed at once', async (t) => {
  // The login waits on the database and bcrypt: uWS 20.30 reads the GET while the answer is
  // pending and closes the connection itself (docs/security.md, "Pipelining").
  const login = post('/auth/login', JSON.stringify({ email: 'pipelined@example.com', password: 'password-1' }));
  const result = await exchange(login + get('/healthz'), 10_000);
  t.log(result);
  t.true(result.closed || result.statuses.length === 2, `answers ${JSON.stringify(result.statuses)}, connection ${result.closed ? 'closed' : 'left open'} after ${result.ms} ms`);
  if (result.closed) t.true(result.ms < 5_000, 'closed at once, not by an idle timeout');
  // The service itself is unharmed.
  t.is((await fetch(`${service.url}/healthz`)).status, 200);
});

// ---- control characters in administrator text ------------------------------------------------------

test('administrator text with a control character (C0 but tab and line feed, DEL, C1) is 400 control_character naming the field; tab and line feed are kept', async (t) => {
  const token = await adminToken(service.url);
  const category = await call(service.url, 'POST', '/api/schedule-categories', { token, json: { name: `제어 ${Date.now()}`, color: '#123456' } });
  t.is(category.status, 201, JSON.stringify(category.body));
  const categoryId = category.body.id as number;
  const schedule = (fields: Record<string, unknown>) => call(service.url, 'POST', '/api/schedules', { token, json: { categoryId, title: '제목', date: '2026-08-01', ...fields } });
  const db = service.running.services.db;
  const before = (await db.one<{ n: number }>('SELECT count(*)::int AS n FROM schedules')).n;
  for (const [fields, field] of [
    [{ title: '벨\u0007소리' }, 'title'],
    [{ description: '\u001b[31m빨간 글씨\u001b[0m' }, 'description'],
    [{ description: '줄\r\n바꿈' }, 'description'],
    [{ source: { name: '출처\u0085다음 줄' } }, 'source.name'],
    [{ title: '지움\u007f' }, 'title'],
    [{ title: '널\u0000' }, null],
  ] as const) {
    const refused = await schedule(fields);
    t.is(refused.status, 400, JSON.stringify(fields));
    if (field !== null) {
      t.is(refused.body.code, 'control_character', JSON.stringify(refused.body));
      t.true(refused.body.error.includes(`'${field}'`), refused.body.error);
    }
  }
  const renamed = await call(service.url, 'PUT', `/api/schedule-categories/${categoryId}`, { token, json: { name: '이름\u0008', color: '#123456' } });
  t.is(renamed.status, 400);
  t.is(renamed.body.code, 'control_character');
  t.is((await db.one<{ n: number }>('SELECT count(*)::int AS n FROM schedules')).n, before, 'nothing stored');
  // Tab and line feed are ordinary text.
  const accepted = await schedule({ title: '탭\t제목', description: '첫 줄\n둘째 줄\t끝' });
  t.is(accepted.status, 201, JSON.stringify(accepted.body));
  const detail = await call(service.url, 'GET', `/api/schedules/${accepted.body.id}`);
  t.is(detail.body.title, '탭\t제목');
  t.is(detail.body.description, '첫 줄\n둘째 줄\t끝');
});
