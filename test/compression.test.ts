// Compressed answers (docs/decisions.md): cacheable JSON of 1 KB or more honours Accept-Encoding
// with br and gzip, carries Vary and an ETag per representation, and decompresses to the very
// bytes of the plain answer. Read with node:http so the bytes on the wire are what is checked.
import test from 'ava';
import { request } from 'node:http';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { insertMember } from './helpers/factory.ts';
import { startTestService, type TestService } from './helpers/service.ts';

let service: TestService;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const MONTH = '/api/schedules/?year=2031&month=3';

test.before(async () => {
  service = await startTestService();
  const db = service.running.services.db;
  const member = await insertMember(db, { name: '압축멤버', birthDate: '2001-03-09' });
  for (let i = 0; i < 30; i++) {
    const { id } = await db.one("INSERT INTO schedules (category_id, title, date, time, source_name) VALUES (1, $1, $2, '19:00', 'KBS') RETURNING id", [
      `압축 시험 일정 ${i} 콘서트`,
      `2031-03-${String(1 + (i % 28)).padStart(2, '0')}`,
    ]);
    await db.none('INSERT INTO schedule_members VALUES ($1, $2)', [id, member.id]);
  }
  service.running.services.monthlyCache.invalidateAll();
});
test.after.always(async () => {
  await service?.stop();
});

test('a month asked for with br comes brotli-compressed, with Vary, its own ETag and the same bytes', async (t) => {
  const plain = await raw(MONTH);
  t.is(plain.status, 200);
  t.true(plain.body.length >= 1024, 'the month is large enough to be compressed');
  t.is(plain.headers['content-encoding'], undefined);
  t.is(plain.headers.vary, 'Accept-Encoding');

  const br = await raw(MONTH, { 'Accept-Encoding': 'gzip, deflate, br' });
  t.is(br.status, 200);
  t.is(br.headers['content-encoding'], 'br');
  t.is(br.headers.vary, 'Accept-Encoding');
  t.true(br.body.length < plain.body.length / 2, `br ${br.body.length} bytes vs plain ${plain.body.length}`);
  t.deepEqual(brotliDecompressSync(br.body), plain.body);
  t.not(br.headers.etag, plain.headers.etag);
  t.regex(String(br.headers.etag), /^"[^"]+"$/, 'a strong ETag');
});

test('gzip when br is refused or not offered; plain when nothing usable is offered', async (t) => {
  const plain = await raw(MONTH);
  for (const accept of ['gzip', 'br;q=0, gzip;q=0.5', 'GZIP, deflate']) {
    const answer = await raw(MONTH, { 'Accept-Encoding': accept });
    t.is(answer.headers['content-encoding'], 'gzip', accept);
    t.deepEqual(gunzipSync(answer.body), plain.body, accept);
  }
  for (const accept of ['identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0']) {
    const answer = await raw(MONTH, { 'Accept-Encoding': accept });
    t.is(answer.headers['content-encoding'], undefined, accept);
    t.deepEqual(answer.body, plain.body, accept);
  }
  const star = await raw(MONTH, { 'Accept-Encoding': '*' });
  t.is(star.headers['content-encoding'], 'br');
});

test('If-None-Match revalidates each representation by its own ETag', async (t) => {
  const br = await raw(MONTH, { 'Accept-Encoding': 'br' });
  const plain = await raw(MONTH);
  const again = await raw(MONTH, { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) });
  t.is(again.status, 304);
  t.is(again.body.length, 0);
  t.is(again.headers.etag, br.headers.etag);
  t.is(again.headers.vary, 'Accept-Encoding');
  // The plain ETag does not validate the compressed representation, nor the other way round.
  t.is((await raw(MONTH, { 'Accept-Encoding': 'br', 'If-None-Match': String(plain.headers.etag) })).status, 200);
  t.is((await raw(MONTH, { 'If-None-Match': String(br.headers.etag) })).status, 200);
  t.is((await raw(MONTH, { 'If-None-Match': String(plain.headers.etag) })).status, 304);
});

test('HEAD with br announces the compressed length', async (t) => {
  const get = await raw(MONTH, { 'Accept-Encoding': 'br' });
  const head = await raw(MONTH, { 'Accept-Encoding': 'br' }, 'HEAD');
  t.is(head.status, 200);
  t.is(head.headers['content-encoding'], 'br');
  t.is(Number(head.headers['content-length']), get.body.length);
  t.is(head.headers.etag, get.headers.etag);
});

test.serial('a write changes the month and its compressed variants together', async (t) => {
  const before = await raw(MONTH, { 'Accept-Encoding': 'br' });
  const db = service.running.services.db;
  await db.none("INSERT INTO schedules (category_id, title, date) VALUES (1, '압축 뒤에 추가된 일정', '2031-03-30')");
  service.running.services.monthlyCache.invalidate(2031, 3);
  const after = await raw(MONTH, { 'Accept-Encoding': 'br' });
  t.not(after.headers.etag, before.headers.etag);
  t.true(brotliDecompressSync(after.body).toString().includes('압축 뒤에 추가된 일정'));
  t.deepEqual(brotliDecompressSync(after.body), (await raw(MONTH)).body);
});

test('other cacheable JSON (the OpenAPI document) is compressed; answers under 1 KB stay plain', async (t) => {
  const plain = await raw('/api/openapi.json');
  const gz = await raw('/api/openapi.json', { 'Accept-Encoding': 'gzip' });
  t.is(gz.headers['content-encoding'], 'gzip');
  t.deepEqual(gunzipSync(gz.body), plain.body);

  const small = await raw('/api/members', { 'Accept-Encoding': 'br, gzip' });
  t.is(small.status, 200);
  t.true(small.body.length < 1024, `members list is ${small.body.length} bytes`);
  t.is(small.headers['content-encoding'], undefined);
  t.is(small.headers.vary, undefined);
});

/** The header lines of one answer exactly as sent, read from a socket (node:http would merge and reorder them). */
function headerLines(path: string, headers: Record<string, string> = {}): Promise<string[]> {
  const { port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}Connection: close\r\n\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0]!.split('\r\n').slice(1)));
    socket.on('error', reject);
  });
}

test('a cacheable answer carries each header once, the same lines at every answer but its request id', async (t) => {
  const plain = await raw(MONTH);
  const br = await raw(MONTH, { 'Accept-Encoding': 'br' });
  const cases: Array<[Record<string, string>, number, string[]]> = [
    [{}, 200, ['Vary: Accept-Encoding', `ETag: ${plain.headers.etag}`]],
    [{ 'Accept-Encoding': 'br' }, 200, ['Vary: Accept-Encoding', 'Content-Encoding: br', `ETag: ${br.headers.etag}`]],
    [{ 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) }, 304, ['Vary: Accept-Encoding', `ETag: ${br.headers.etag}`]],
  ];
  for (const [headers, status, representation] of cases) {
    const expected = [
      'Access-Control-Allow-Origin: *',
      'Access-Control-Expose-Headers: ETag, X-Request-Id, Retry-After',
      'X-Content-Type-Options: nosniff',
      'Content-Type: application/json; charset=utf-8',
      `Cache-Control: ${plain.headers['cache-control']}`,
      ...representation,
    ];
    const answers = [await headerLines(MONTH, headers), await headerLines(MONTH, headers)];
    for (const lines of answers) {
      t.regex(lines[0]!, /^X-Request-Id: \S+$/, JSON.stringify(headers));
      t.deepEqual(lines.slice(1, 1 + expected.length), expected, JSON.stringify(headers));
      const names = lines.map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
      t.is(new Set(names).size, names.length, `no header twice: ${names.join(', ')}`);
      t.true(lines.includes(`Content-Length: ${status === 304 ? 0 : headers['Accept-Encoding'] ? br.body.length : plain.body.length}`), lines.join(' | '));
    }
    t.not(answers[0]![0], answers[1]![0], 'each answer has its own request id');
  }
  // A client's own request id comes back, before the representation's lines.
  t.is((await headerLines(MONTH, { 'X-Request-Id': 'client-id-1' }))[0], 'X-Request-Id: client-id-1');
});

test('answers that are not cacheable JSON are never compressed', async (t) => {
  const missing = await raw('/api/schedules/999999999', { 'Accept-Encoding': 'br' });
  t.is(missing.status, 404);
  t.is(missing.headers['content-encoding'], undefined);
  t.truthy(JSON.parse(missing.body.toString()).error);
});
