// Logs for people and machines: one access-log line per request at info with the route
// template, status, bytes, duration, request id and client address, never the path's values or
// the query string; levels as names; no key twice in a line. With ACCESS_LOG on, one client
// network's 4xx lines past ACCESS_LOG_4XX_PER_MINUTE are sampled, and its 5xx lines past
// ACCESS_LOG_5XX_PER_MINUTE; metrics count every answer.
import test from 'ava';
import { ClientErrorLog, MAX_CLIENTS } from '../edge/client-error-log.ts';
import { freePort } from '../shared/db/embedded-postgres.ts';
import { ConfigError, loadConfig } from '../shared/runtime/config.ts';
import { startTestService, type LogCapture, type TestService } from './helpers/service.ts';

let service: TestService;
const logs: LogCapture = { lines: [] };

test.before(async () => {
  service = await startTestService({ ACCESS_LOG: 'all' }, { captureLogs: logs });
});

test.after.always(async () => {
  await service?.stop();
});

interface AccessLine { level: string; msg: string; method: string; route: string | null; status: number; bytes: number; ms: number; requestId: string; client?: string; sampled?: number }

const accessLines = (capture: LogCapture = logs) => capture.lines.map((line) => JSON.parse(line) as AccessLine).filter((line) => line.msg === 'request');

test.serial('one info line per request: method, route template, status, bytes, duration, request id, client address', async (t) => {
  const before = accessLines().length;
  const monthUrl = `${service.url}/api/schedules/?year=2031&month=4&secret=query-value`;
  await (await fetch(monthUrl)).arrayBuffer(); // fills the month's cache: the next answer is the cached path
  const month = await fetch(monthUrl, { headers: { 'x-request-id': 'access-log-1', 'x-forwarded-for': '10.38.1.1' } });
  const body = await month.arrayBuffer();
  await fetch(`${service.url}/auth/verify/a-verification-token-38`, { headers: { 'x-forwarded-for': '10.38.1.2' } });
  await fetch(`${service.url}/api/no-such-route-38`);
  const lines = accessLines().slice(before + 1);
  t.is(lines.length, 3, JSON.stringify(lines));
  t.like(lines[0], { level: 'info', method: 'GET', route: '/api/schedules', status: 200, bytes: body.byteLength, requestId: 'access-log-1', client: '10.38.1.1' });
  t.true(lines[0]!.ms >= 0);
  t.like(lines[1], { route: '/auth/verify/:token', status: 400, client: '10.38.1.2' });
  t.like(lines[2], { route: null, status: 404 });
  const text = logs.lines.join('\n');
  for (const secret of ['query-value', 'secret=', 'a-verification-token-38', 'no-such-route-38']) t.false(text.includes(secret), secret);
});

test.serial('the client is the forwarded address read as an address: port, brackets and IPv4-mapped spellings are removed', async (t) => {
  const spellings = [
    ['1.2.3.4:5678', '1.2.3.4'], ['[::1]:80', '::1'], ['::ffff:1.2.3.4', '1.2.3.4'], ['[::FFFF:102:304]:443', '1.2.3.4'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'], ['[2001:db8::1]', '2001:db8::1'],
  ] as const;
  for (const [sent, client] of spellings) {
    const before = accessLines().length;
    await (await fetch(`${service.url}/api/no-such-route`, { headers: { 'x-forwarded-for': sent } })).arrayBuffer();
    await new Promise((r) => setTimeout(r, 20));
    t.like(accessLines().slice(before).find((line) => line.status === 404), { client }, sent);
  }
});

test.serial('levels are names and no line holds a key twice', async (t) => {
  await fetch(`${service.url}/healthz`);
  t.true(logs.lines.length > 0);
  for (const line of logs.lines) {
    const parsed = JSON.parse(line) as { level: unknown };
    t.regex(String(parsed.level), /^(trace|debug|info|warn|error|fatal)$/);
    const keys = [...line.matchAll(/[{,]"([^"]+)":/g)].map((m) => m[1]);
    const top = Object.keys(parsed);
    t.is(new Set(top).size, top.length);
    t.is(keys.filter((key) => key === 'pid').length <= 1, true, line);
  }
});

test.serial('ACCESS_LOG on: one client\'s 4xx and 5xx lines past their rates are sampled with `sampled` = the lines each stands for; other clients are logged in full; metrics count every answer', async (t) => {
  const sampledLogs: LogCapture = { lines: [] };
  // MAIL_QUEUE_MAX=1 and no mail server: after one registration, registrations answer 503.
  const mailPort = await freePort();
  const sampling = await startTestService({ ACCESS_LOG: 'on', ACCESS_LOG_4XX_PER_MINUTE: '10', ACCESS_LOG_5XX_PER_MINUTE: '5', LOG_LEVEL: 'info', MAIL_QUEUE_MAX: '1', SMTP_URL: `smtp://127.0.0.1:${mailPort}` }, { captureLogs: sampledLogs });
  t.teardown(() => sampling.stop());
  const flood = '10.38.9.1';
  const quiet = '10.39.9.2'; // another network: the flood's /24 is one client
  const get = (client: string) => fetch(`${sampling.url}/api/no-such-route`, { headers: { 'x-forwarded-for': client } }).then((r) => r.arrayBuffer());
  const FLOOD = 2_000;
  for (let sent = 0; sent < FLOOD; sent += 50) await Promise.all(Array.from({ length: 50 }, () => get(flood)));
  for (let i = 0; i < 5; i++) await get(quiet);
  const register = (n: number) => fetch(`${sampling.url}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': flood }, body: JSON.stringify({ email: `sampled-${n}-${Date.now()}@example.com`, password: 'password-1234' }) });
  t.is((await register(0)).status, 200);
  const UNAVAILABLE = 250;
  const unavailable: number[] = [];
  for (let sent = 0; sent < UNAVAILABLE; sent += 25) unavailable.push(...(await Promise.all(Array.from({ length: 25 }, (_, i) => register(sent + i + 1).then((r) => r.status)))));
  t.deepEqual(unavailable, unavailable.map(() => 503));
  await new Promise((r) => setTimeout(r, 200)); // the last lines are written asynchronously

  const lines = accessLines(sampledLogs);
  const floodLines = lines.filter((line) => line.client === flood && line.status === 404);
  const represented = floodLines.reduce((sum, line) => sum + (line.sampled ?? 1), 0);
  t.log(`${FLOOD} 404s from one client: ${floodLines.length} lines standing for ${represented}`);
  t.true(floodLines.length <= 10 + 5 + FLOOD / 100, `${floodLines.length} lines`);
  t.true(represented <= FLOOD && represented > FLOOD - 100, `the lines stand for ${represented} of ${FLOOD} answers`);
  t.true(floodLines.some((line) => line.sampled === 100));
  const quietLines = lines.filter((line) => line.client === quiet);
  t.is(quietLines.length, 5, 'another client is logged in full');
  t.true(quietLines.every((line) => line.sampled === undefined));
  const errors = lines.filter((line) => line.client === flood && line.status === 503);
  const errorsRepresented = errors.reduce((sum, line) => sum + (line.sampled ?? 1), 0);
  t.log(`${UNAVAILABLE} 503s from one client: ${errors.length} lines standing for ${errorsRepresented}`);
  t.true(errors.length >= 5 && errors.length <= 5 + 2 + UNAVAILABLE / 100, `${errors.length} lines of 503`);
  t.true(errors.some((line) => line.sampled === 100), 'the line after the left-out ones says how many it stands for');
  t.true(errorsRepresented <= UNAVAILABLE && errorsRepresented > UNAVAILABLE - 100);
  // Metrics count every answer, logged or not.
  const metrics = await (await fetch(`${sampling.metricsUrl}/metrics`)).text();
  const counted = [...metrics.matchAll(/^http_requests_total\{[^}]*route="\/auth\/register"[^}]*status="503"[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  t.is(counted, UNAVAILABLE);
});

test('error lines are sampled per network: an IPv6 client rotating /64s inside one /48, or IPv4 addresses inside one /24, is one client', (t) => {
  const six = new ClientErrorLog(2);
  t.deepEqual(['2001:db8:1:1::1', '2001:db8:1:2::1', '2001:db8:1:ffff::1'].map((address) => six.admit(address)), [1, 1, 0]);
  t.is(six.admit('2001:db8:2::1'), 1, 'another /48 has a bucket of its own');
  const four = new ClientErrorLog(2);
  t.deepEqual(['192.0.2.1', '192.0.2.77', '::ffff:192.0.2.200'].map((address) => four.admit(address)), [1, 1, 0]);
  t.is(four.admit('192.0.3.1'), 1, 'another /24 has a bucket of its own');
});

test('the 4xx sampling remembers at most MAX_CLIENTS clients, the least recently seen forgotten first', (t) => {
  const log = new ClientErrorLog(10);
  for (let i = 0; i < MAX_CLIENTS * 2; i++) t.is(log.admit(`10.${(i >> 8) & 255}.${i & 255}.1`), 1);
  t.is(log.size, MAX_CLIENTS);
  // An IPv6 client is one client for its whole /48.
  const six = new ClientErrorLog(2);
  t.deepEqual(['2001:db8:1:1::1', '2001:db8:1:1::2', '2001:db8:1:1::3'].map((address) => six.admit(address)), [1, 1, 0]);
  // The variable is validated at start.
  const base = { DATABASE_URL: 'postgres://localhost/x', JWT_SECRET: 'x'.repeat(32) };
  t.is(loadConfig(base).accessLog4xxPerMinute, 60);
  for (const bad of ['0', 'some', '1.5']) t.is(t.throws(() => loadConfig({ ...base, ACCESS_LOG_4XX_PER_MINUTE: bad }), { instanceOf: ConfigError })?.variable, 'ACCESS_LOG_4XX_PER_MINUTE');
});
