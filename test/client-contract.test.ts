// What a client developer reads in the contract is what the server does: the multipart `payload`
// part is accepted however clients send it (a text field, or a JSON part with or without a
// filename, as browsers send a Blob and curl -F sends a file), within the same size limit; the
// AsyncAPI servers follow PUBLIC_BASE_URL and each channel carries its own transport's binding;
// a duplicate category name answers name_taken.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { buildAsyncApi } from '../schemas/asyncapi.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let token: string;
let dir: string;

test.before(async () => {
  service = await startTestService();
  token = await adminToken(service.url);
  dir = await mkdtemp(join(tmpdir(), 'client-contract-'));
});
test.after.always(async () => {
  await service?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A raw multipart body with one `payload` part whose headers the test chooses. */
function multipart(partHeaders: string, value: string): { body: Buffer; type: string } {
  const boundary = '----client-contract-boundary';
  const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="payload"${partHeaders}\r\n\r\n${value}\r\n--${boundary}--\r\n`);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

const post = (form: { body: Buffer; type: string }) => call(service.url, 'POST', '/api/schedules', { token, body: form.body, headers: { 'content-type': form.type } });

test.serial('the payload part: a text field, a JSON part with a filename, a JSON part without one', async (t) => {
  const payload = (title: string) => JSON.stringify({ categoryId: 2, title, date: '2038-01-10' });
  const forms = {
    'a text field': multipart('', payload('텍스트 항목')),
    'a JSON part with a filename (a browser Blob)': multipart('; filename="blob"\r\nContent-Type: application/json', payload('파일 이름 있는 JSON')),
    'a JSON part without a filename': multipart('\r\nContent-Type: application/json', payload('파일 이름 없는 JSON')),
  };
  for (const [name, form] of Object.entries(forms)) {
    const response = await post(form);
    t.is(response.status, 201, `${name}: ${JSON.stringify(response.body)}`);
  }
  const listing = await call(service.url, 'GET', '/api/schedules?year=2038&month=1');
  t.deepEqual(listing.body.schedules.map((item: { title: string }) => item.title).sort(), ['텍스트 항목', '파일 이름 없는 JSON', '파일 이름 있는 JSON'].sort());
});

test.serial('the payload part keeps the text limit (256 KiB) and the JSON rule however it is sent', async (t) => {
  const big = JSON.stringify({ categoryId: 2, title: '큰 항목', date: '2038-01-11', description: 'ㄱ'.repeat(100_000) });
  const tooLarge = await post(multipart('; filename="p.json"\r\nContent-Type: application/json', big));
  t.is(tooLarge.status, 413);
  t.like(tooLarge.body, { code: 'payload_too_large' });
  const notJson = await post(multipart('; filename="p.json"\r\nContent-Type: application/json', '{not json'));
  t.is(notJson.status, 400);
  t.regex(notJson.body.error, /payload/);
});

test.serial('curl -F "payload=@p.json;type=application/json" with a file part creates a schedule with its image', async (t) => {
  const { pngImage } = await import('./helpers/images.ts');
  await writeFile(join(dir, 'p.json'), JSON.stringify({ categoryId: 2, title: 'curl로 보낸 일정', date: '2038-02-12' }));
  await writeFile(join(dir, 'poster.png'), await pngImage(400, 300));
  const { stdout } = await promisify(execFile)('curl', ['-s', '-w', '\n%{http_code}', '-H', `Authorization: Bearer ${token}`, '-F', 'payload=@p.json;type=application/json', '-F', 'files=@poster.png;type=image/png', `${service.url}/api/schedules`], { cwd: dir });
  const [body, status] = stdout.split('\n');
  t.is(status, '201', body);
  const detail = await call(service.url, 'GET', `/api/schedules/${JSON.parse(body!).id}`);
  t.is(detail.body.title, 'curl로 보낸 일정');
  t.is(detail.body.images.length, 1);
});

test.serial('a duplicate category name answers 409 name_taken, on create and on rename', async (t) => {
  const first = await call(service.url, 'POST', '/api/schedule-categories', { token, json: { name: '계약 분류', color: '#112233' } });
  t.is(first.status, 201);
  const duplicate = await call(service.url, 'POST', '/api/schedule-categories', { token, json: { name: '계약 분류', color: '#332211' } });
  t.is(duplicate.status, 409);
  t.like(duplicate.body, { code: 'name_taken' });
  const other = await call(service.url, 'POST', '/api/schedule-categories', { token, json: { name: '계약 분류 2', color: '#445566' } });
  const rename = await call(service.url, 'PUT', `/api/schedule-categories/${other.body.id}`, { token, json: { name: '계약 분류' } });
  t.is(rename.status, 409);
  t.like(rename.body, { code: 'name_taken' });
});

test.serial('AsyncAPI: servers follow PUBLIC_BASE_URL (wss/https behind TLS); the SSE channel carries an HTTP binding, not a WebSocket one', async (t) => {
  const { Parser } = await import('@asyncapi/parser');
  const limits = { maxMonths: 24, heartbeatSeconds: 25 };
  type Doc = { servers: Record<string, { host: string; protocol: string; pathname?: string }>; channels: Record<string, { bindings?: Record<string, unknown> }>; operations: Record<string, { bindings?: Record<string, { method?: string }> }> };
  const secure = buildAsyncApi({ version: '1', baseUrl: 'https://calendar.example.org', limits }) as unknown as Doc;
  t.like(secure.servers, { websocket: { host: 'calendar.example.org', protocol: 'wss' }, eventStream: { host: 'calendar.example.org', protocol: 'https' } });
  const behindPath = buildAsyncApi({ version: '1', baseUrl: 'https://example.org/calendar/', limits }) as unknown as Doc;
  t.like(behindPath.servers, { websocket: { host: 'example.org', pathname: '/calendar', protocol: 'wss' } });
  t.deepEqual(Object.keys(secure.channels.liveWebSocket!.bindings ?? {}), ['ws']);
  t.is(secure.channels.liveEventStream!.bindings, undefined, 'no WebSocket binding on the event stream');
  t.like(secure.operations.receiveEvents!.bindings, { http: { method: 'GET' } });
  for (const doc of [secure, behindPath]) {
    const diagnostics = await new Parser().validate(JSON.stringify(doc));
    t.deepEqual(diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.path.join('.')}: ${d.message}`), []);
  }
  // The served document of a plain-HTTP server says ws and http.
  const served = (await call(service.url, 'GET', '/api/asyncapi.json')).body as Doc;
  t.like(served.servers, { websocket: { protocol: 'ws' }, eventStream: { protocol: 'http' } });
});
