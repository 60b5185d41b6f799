// Logs for people and machines (issue 38): one access-log line per request at info with the route
// template, status, bytes, duration, request id and client address, never the path's values or
// the query string; levels as names; no key twice in a line.
import test from 'ava';
import { startTestService, type LogCapture, type TestService } from './helpers/service.ts';

let service: TestService;
const logs: LogCapture = { lines: [] };

test.before(async () => {
  service = await startTestService({ ACCESS_LOG: 'all' }, { captureLogs: logs });
});

test.after.always(async () => {
  await service?.stop();
});

interface AccessLine { level: string; msg: string; method: string; route: string | null; status: number; bytes: number; ms: number; requestId: string; client?: string }

const accessLines = () => logs.lines.map((line) => JSON.parse(line) as AccessLine).filter((line) => line.msg === 'request');

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
