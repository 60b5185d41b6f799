// The edge against hostile or unusual HTTP, over raw sockets to the real service: pipelined
// requests after a POST (docs/security.md, "Pipelining").
import test from 'ava';
import { connect } from 'node:net';
import { startTestService, type TestService } from './helpers/service.ts';

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
