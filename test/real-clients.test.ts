// What real clients see on the wire, against the real process: undici `fetch` (Node's
// global fetch) reads every early answer to an upload, the connection survives an answer given
// before a small body was read, and CORS preflight names every method routed at a path.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import test from 'ava';
import sharp from 'sharp';
import { connectDatabase } from '../shared/db/database.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { LIBVIPS_NICE } from '../workers/image-pool.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { jpegImage, pngImage } from './helpers/images.ts';
import { ADMIN } from './helpers/process.ts';
import { adminToken } from './helpers/service.ts';
import { startProcess, type ServiceProcess } from './helpers/service-process.ts';

let database: TestDatabase;
let server: ServiceProcess;
let token: string;

test.before(async () => {
  database = await createTestDatabase();
  server = await startProcess(database, { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn' });
  token = await adminToken(server.url);
});

test.after.always(async () => {
  await server?.stop();
  await database?.drop();
});

function upload(size: number, field = 'image'): FormData {
  const form = new FormData();
  form.append('payload', JSON.stringify({ position: 'x' }));
  form.append(field, new Blob([new Uint8Array(size).fill(0x41)], { type: 'image/png' }), 'big.png');
  return form;
}

/** Status and parsed body, or the network error's text when fetch itself fails. */
async function send(path: string, init: RequestInit): Promise<{ status: number | string; body: unknown }> {
  try {
    const response = await fetch(server.url + path, init);
    return { status: response.status, body: await response.json() };
  } catch (error) {
    return { status: `fetch failed: ${(error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`, body: null };
  }
}

for (const [label, size] of [['5 KB', 5 * 1024], ['30 MB', 30 * 1024 * 1024]] as const) {
  test.serial(`fetch reads the 401 of a multipart member update of ${label} sent without a token`, async (t) => {
    const answer = await send('/api/members/%EC%97%86%EC%9D%8C', { method: 'PUT', body: upload(size) });
    t.is(answer.status, 401);
    t.truthy((answer.body as { error?: string }).error);
  });
}

test.serial('fetch reads the 413 of a member image over the route limit (30 MB file, limit 21 MB)', async (t) => {
  const answer = await send('/api/members/%EC%97%86%EC%9D%8C', { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: upload(30 * 1024 * 1024) });
  t.is(answer.status, 413);
  t.truthy((answer.body as { error?: string }).error);
});

test.serial('fetch reads the 413 of one poster over the 20 MB file limit inside an event upload', async (t) => {
  const answer = await send('/api/admin/events', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: upload(30 * 1024 * 1024, 'posters') });
  t.is(answer.status, 413);
  t.regex((answer.body as { error: string }).error, /20MB/);
});

test.serial('fetch reads the 401 of an upload streamed without a length (chunked)', async (t) => {
  const chunk = new Uint8Array(64 * 1024);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= 8 * 1024 * 1024) controller.close();
      else {
        sent += chunk.length;
        controller.enqueue(chunk);
      }
    },
  });
  const answer = await send('/api/members/x', { method: 'PUT', headers: { 'content-type': 'multipart/form-data; boundary=b' }, body, duplex: 'half' } as RequestInit);
  t.is(answer.status, 401);
});

/** Raw HTTP/1.1 on one socket: every byte the server sent until it stops or closes. */
function rawExchange(request: Buffer, waitFor: (text: string) => boolean): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let text = '';
    let closed = false;
    const timer = setTimeout(() => finish(), 5000);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    socket.on('data', (data) => {
      text += data.toString('latin1');
      if (waitFor(text)) setTimeout(finish, 100); // a close right after the answer would show in this window
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', reject);
    socket.write(request);
  });
}

test.serial('an answer given before a body within the limit was read keeps the connection for the next request', async (t) => {
  const body = Buffer.alloc(5 * 1024, 0x41);
  const request = Buffer.concat([
    Buffer.from(`PUT /api/members/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${body.length}\r\n\r\n`),
    body,
    Buffer.from('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
  ]);
  const { text, closed } = await rawExchange(request, (seen) => (seen.match(/HTTP\/1\.1 /g) ?? []).length >= 2 && seen.includes('"status"'));
  const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
  t.deepEqual(statuses, [401, 200], 'the 401, then the next request on the same connection');
  t.false(closed, 'the connection stays open');
});

test.serial('past the limit the answer says the connection ends and arrives before any reset', async (t) => {
  // Declared 50 MB against the 21 MB member route: answered at once, the rest is never read.
  const request = Buffer.from(`PUT /api/members/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`);
  const { text, closed } = await rawExchange(request, (seen) => seen.includes('}'));
  t.regex(text, /^HTTP\/1\.1 413/);
  t.regex(text, /\r\nConnection: close\r\n/i);
  t.false(closed, 'no reset right after the answer: the client decides when to close');
});

// ---- The upload budget ------------------------------------------------------------------------------

test('while one upload is held, the next past the process\'s upload budget is 503 with Retry-After, stores nothing, and is admitted once the first is done', async (t) => {
  const budgetDatabase = await createTestDatabase();
  const budgeted = await startProcess(budgetDatabase, { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', UPLOAD_BUDGET_MB: '1' });
  const connection = connectDatabase(budgetDatabase.url, createLogger('warn'), 1);
  t.teardown(async () => {
    await connection.close();
    await budgeted.stop();
    await budgetDatabase.drop();
  });
  const authorization = `Bearer ${await adminToken(budgeted.url)}`;
  const event = (title: string, poster: Uint8Array) => {
    const form = new FormData();
    form.append('payload', JSON.stringify({ title, date: '2026-05-01', schoolName: '고려대학교', venue: { name: '민주광장', address: '서울' } }));
    form.append('posters', new Blob([poster], { type: 'image/png' }), 'poster.png');
    return form;
  };
  // The held upload: a 1.5 MB poster (uncompressed noise), its body sent in two halves on a socket.
  const big = await sharp(randomBytes(700 * 700 * 3), { raw: { width: 700, height: 700, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
  const small = await pngImage(40, 30);
  const encoded = new Request('http://127.0.0.1/', { method: 'POST', body: event('먼저 온 업로드', big) });
  const body = Buffer.from(await encoded.arrayBuffer());
  t.true(body.length > 1024 * 1024);
  const socket = connect(budgeted.port, '127.0.0.1');
  t.teardown(() => socket.destroy());
  let heldAnswer = '';
  const heldDone = new Promise<void>((resolve) => socket.on('data', (data) => {
    heldAnswer += data.toString();
    if (heldAnswer.includes('}')) resolve();
  }));
  socket.write(`POST /api/admin/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\nContent-Type: ${encoded.headers.get('content-type')}\r\nContent-Length: ${body.length}\r\n\r\n`);
  socket.write(body.subarray(0, body.length >> 1));
  await new Promise((resolve) => setTimeout(resolve, 300));

  const refused = await fetch(`${budgeted.url}/api/admin/events`, { method: 'POST', headers: { authorization }, body: event('예산을 넘은 업로드', small) });
  t.is(refused.status, 503);
  t.is(refused.headers.get('retry-after'), '2');
  t.regex(((await refused.json()) as { error: string }).error, /업로드/);

  socket.write(body.subarray(body.length >> 1));
  await heldDone;
  t.regex(heldAnswer, /^HTTP\/1\.1 201/);
  const admitted = await fetch(`${budgeted.url}/api/admin/events`, { method: 'POST', headers: { authorization }, body: event('나중에 온 업로드', small) });
  t.is(admitted.status, 201);
  const titles = await connection.db.map('SELECT title FROM schedules ORDER BY id', [], (row: { title: string }) => row.title);
  t.deepEqual(titles, ['먼저 온 업로드', '나중에 온 업로드']);
});

// ---- CORS preflight --------------------------------------------------------------------------------

const PREFLIGHT: Array<[string, string[]]> = [
  ['/api/admin/events/1', ['GET', 'HEAD', 'PUT', 'DELETE']],
  ['/api/admin/events', ['POST']],
  ['/api/schedules/1', ['GET', 'HEAD', 'PUT', 'DELETE']],
  ['/api/albums/1', ['GET', 'HEAD', 'PUT', 'DELETE']],
  ['/api/albums/1/photos', ['GET', 'HEAD', 'POST']],
  ['/api/albums/1/photos/2', ['PUT', 'DELETE']],
  ['/api/members/x', ['GET', 'HEAD', 'PUT']],
  ['/api/schedules/suggestions/dict', ['GET', 'HEAD', 'PUT']],
  ['/api/admin/bots/quota-warning', ['GET', 'HEAD', 'DELETE']],
  ['/auth/delete', ['DELETE']],
  ['/api/albums', ['GET', 'HEAD', 'POST']],
];

for (const [path, expected] of PREFLIGHT) {
  test(`preflight ${path} lists ${expected.join(', ')}`, async (t) => {
    const response = await fetch(server.url + path, {
      method: 'OPTIONS',
      headers: { origin: 'https://fan.example', 'access-control-request-method': expected.at(-1)!, 'access-control-request-headers': 'authorization, content-type' },
    });
    t.is(response.status, 204);
    const methods = (response.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
    t.deepEqual([...methods].sort(), [...new Set(['OPTIONS', ...expected])].sort());
    const headers = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',').map((h) => h.trim());
    for (const name of ['authorization', 'content-type', 'if-none-match', 'x-request-id']) t.true(headers.includes(name), name);
    t.is(response.headers.get('access-control-allow-origin'), '*');
  });
}

test('preflight of a path nobody routes is 404', async (t) => {
  t.is((await fetch(`${server.url}/api/nothing/here`, { method: 'OPTIONS' })).status, 404);
});

// ---- Image work yields to the event loop -----------------------------------------------------------

/** Id, name and nice value of each thread of a process (Linux /proc). */
function threadsOf(pid: number): Array<{ tid: number; name: string; nice: number }> {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [{ tid: Number(tid), name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), nice: Number(fields[16]) }];
    } catch {
      return []; // ended meanwhile
    }
  });
}

const procThere = existsSync('/proc/self/task');
(procThere ? test : test.skip)(`after an upload, libvips' threads in the real process run at nice ${LIBVIPS_NICE}, its event loop at 0${procThere ? '' : ': not run, no /proc here'}`, async (t) => {
  const form = new FormData();
  form.append('payload', JSON.stringify({ title: '우선순위 확인', date: '2026-05-01', schoolName: '고려대학교', venue: { name: '민주광장', address: '서울' } }));
  form.append('posters', new Blob([await jpegImage(1600, 1000)], { type: 'image/jpeg' }), 'poster.jpg');
  const answer = await fetch(`${server.url}/api/admin/events`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  t.is(answer.status, 201);
  const threads = threadsOf(server.child.pid!);
  const libvips = threads.filter((thread) => thread.name === 'libvips worker');
  t.true(libvips.length > 0, `libvips threads: ${threads.map((thread) => thread.name).join(', ')}`);
  t.deepEqual([...new Set(libvips.map((thread) => thread.nice))], [LIBVIPS_NICE]);
  t.is(threads.find((thread) => thread.tid === server.child.pid)!.nice, 0, 'the main thread keeps its priority');
});
