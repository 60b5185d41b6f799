// Stored files served by the edge: streamed with Content-Length, a strong ETag,
// If-None-Match → 304, HEAD, one Range → 206 (416 when unsatisfiable), Accept-Ranges. Local storage
// on the real process; an S3 bucket (s3rver on 127.0.0.1) read through by the in-process service.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { startProcess, type ServiceProcess } from './helpers/service-process.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const FILE = randomBytes(1024 * 1024 + 17);
let database: TestDatabase;
let server: ServiceProcess;
let fileUrl: string;

test.before(async () => {
  database = await createTestDatabase();
  server = await startProcess(database, { LOG_LEVEL: 'warn' });
  // What an upload leaves in DATA_DIR/storage/<bucket>/<key>.
  await mkdir(path.join(server.dataDir, 'storage', 'media', 'album', '1', 'teaser'), { recursive: true });
  await writeFile(path.join(server.dataDir, 'storage', 'media', 'album', '1', 'teaser', 'clip.mp4'), FILE);
  fileUrl = `${server.url}/storage/media/album/1/teaser/clip.mp4`;
});

test.after.always(async () => {
  await server?.stop();
  await database?.drop();
});

const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

test('GET streams the whole file with Content-Length, a strong ETag, Accept-Ranges and its type', async (t) => {
  const response = await fetch(fileUrl);
  t.is(response.status, 200);
  t.is(response.headers.get('content-length'), String(FILE.length));
  t.is(response.headers.get('accept-ranges'), 'bytes');
  t.is(response.headers.get('content-type'), 'video/mp4');
  t.regex(response.headers.get('etag') ?? '', /^"[^"]+"$/, 'strong: no W/ prefix');
  t.truthy(response.headers.get('last-modified'));
  t.true((await bytesOf(response)).equals(FILE));
});

test('If-None-Match with the ETag answers 304 without a body', async (t) => {
  const etag = (await fetch(fileUrl, { method: 'HEAD' })).headers.get('etag')!;
  const response = await fetch(fileUrl, { headers: { 'if-none-match': etag } });
  t.is(response.status, 304);
  t.is(response.headers.get('etag'), etag);
  t.is((await bytesOf(response)).length, 0);
  t.is((await fetch(fileUrl, { headers: { 'if-none-match': '"other"' } })).status, 200);
});

test('If-None-Match compares weakly: W/ and a list holding the tag give 304', async (t) => {
  const etag = (await fetch(fileUrl, { method: 'HEAD' })).headers.get('etag')!;
  t.is((await fetch(fileUrl, { headers: { 'if-none-match': `W/${etag}` } })).status, 304);
  t.is((await fetch(fileUrl, { headers: { 'if-none-match': `"other", W/${etag}` } })).status, 304);
  t.is((await fetch(fileUrl, { headers: { 'if-none-match': 'W/"other"' } })).status, 200);
});

test('If-Modified-Since: 304 when the file did not change after it, 200 when it did; If-None-Match wins', async (t) => {
  const lastModified = (await fetch(fileUrl, { method: 'HEAD' })).headers.get('last-modified')!;
  t.regex(lastModified, /GMT$/);
  const same = await fetch(fileUrl, { headers: { 'if-modified-since': lastModified } });
  t.is(same.status, 304);
  t.is(same.headers.get('last-modified'), lastModified);
  t.is((await bytesOf(same)).length, 0);
  const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
  t.is((await fetch(fileUrl, { headers: { 'if-modified-since': earlier } })).status, 200);
  t.is((await fetch(fileUrl, { headers: { 'if-modified-since': 'not a date' } })).status, 200);
  t.is((await fetch(fileUrl, { headers: { 'if-modified-since': lastModified, 'if-none-match': '"other"' } })).status, 200);
});

test('HEAD answers the headers and the length only', async (t) => {
  const response = await fetch(fileUrl, { method: 'HEAD' });
  t.is(response.status, 200);
  t.is(response.headers.get('content-length'), String(FILE.length));
  t.is(response.headers.get('accept-ranges'), 'bytes');
  t.is((await bytesOf(response)).length, 0);
});

const RANGES: Array<[string, number, number]> = [
  ['bytes=100-199', 100, 199],
  ['bytes=0-0', 0, 0],
  [`bytes=${FILE.length - 10}-`, FILE.length - 10, FILE.length - 1],
  ['bytes=-10', FILE.length - 10, FILE.length - 1],
  [`bytes=1000-${FILE.length * 2}`, 1000, FILE.length - 1],
];
for (const [header, start, end] of RANGES) {
  test(`Range ${header.replace(String(FILE.length * 2), 'past-the-end').replace(String(FILE.length - 10), 'size-10')} → 206 with exactly those bytes`, async (t) => {
    const response = await fetch(fileUrl, { headers: { range: header } });
    t.is(response.status, 206);
    t.is(response.headers.get('content-range'), `bytes ${start}-${end}/${FILE.length}`);
    t.is(response.headers.get('content-length'), String(end - start + 1));
    t.true((await bytesOf(response)).equals(FILE.subarray(start, end + 1)));
  });
}

test('a Range past the end is 416 with Content-Range: bytes */size', async (t) => {
  for (const header of [`bytes=${FILE.length}-`, `bytes=${FILE.length + 5}-${FILE.length + 9}`, 'bytes=-0']) {
    const response = await fetch(fileUrl, { headers: { range: header } });
    t.is(response.status, 416, header);
    t.is(response.headers.get('content-range'), `bytes */${FILE.length}`);
    t.truthy(((await response.json()) as { error?: string }).error);
  }
});

test('several ranges or a malformed Range get the whole file (200)', async (t) => {
  for (const header of ['bytes=0-1,5-6', 'bytes=9-3', 'items=0-1']) {
    const response = await fetch(fileUrl, { headers: { range: header } });
    t.is(response.status, 200, header);
    t.is((await bytesOf(response)).length, FILE.length);
  }
});

test('HEAD with a Range answers 206 headers only', async (t) => {
  const response = await fetch(fileUrl, { method: 'HEAD', headers: { range: 'bytes=10-19' } });
  t.is(response.status, 206);
  t.is(response.headers.get('content-length'), '10');
  t.is(response.headers.get('content-range'), `bytes 10-19/${FILE.length}`);
});

test('a client that leaves mid-download does not stop the server from answering the next one', async (t) => {
  const controller = new AbortController();
  const response = await fetch(fileUrl, { signal: controller.signal });
  const reader = response.body!.getReader();
  await reader.read();
  controller.abort();
  await reader.read().catch(() => undefined);
  const again = await fetch(fileUrl, { headers: { range: 'bytes=0-3' } });
  t.is(again.status, 206);
  t.true((await bytesOf(again)).equals(FILE.subarray(0, 4)));
});

test('missing files and paths outside the bucket are 404', async (t) => {
  for (const path of ['/storage/media/album/1/teaser/none.mp4', '/storage/media/..%2F..%2Fjwt-secret', '/storage/other/x', '/storage/media/album']) {
    t.is((await fetch(server.url + path)).status, 404, path);
  }
});

// ---- S3 -------------------------------------------------------------------------------------------

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
// s3rver is CommonJS without type declarations.
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: Record<string, unknown>) => S3rverInstance;

test.serial('S3: /storage reads the bucket through with ranged GETs (206, HEAD, 304)', async (t) => {
  const s3Dir = await mkdtemp(path.join(tmpdir(), 's3rver-serving-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
  let service: TestService | null = null;
  try {
    const { port } = await s3.run();
    service = await startTestService({ STORAGE_URL: `http://127.0.0.1:${port}`, STORAGE_ACCESS_KEY: 'S3RVER', STORAGE_SECRET_KEY: 'S3RVER' }, { database });
    await service.running.services.storage.put('album/2/teaser/clip.mp4', FILE, 'video/mp4');
    const url = `${service.url}/storage/media/album/2/teaser/clip.mp4`;

    const whole = await fetch(url);
    t.is(whole.status, 200);
    t.is(whole.headers.get('content-length'), String(FILE.length));
    t.is(whole.headers.get('content-type'), 'video/mp4');
    t.true((await bytesOf(whole)).equals(FILE));
    const etag = whole.headers.get('etag')!;
    t.regex(etag, /^"[^"]+"$/);

    const part = await fetch(url, { headers: { range: 'bytes=500-1499' } });
    t.is(part.status, 206);
    t.is(part.headers.get('content-range'), `bytes 500-1499/${FILE.length}`);
    t.true((await bytesOf(part)).equals(FILE.subarray(500, 1500)));

    const head = await fetch(url, { method: 'HEAD' });
    t.is(head.status, 200);
    t.is(head.headers.get('content-length'), String(FILE.length));
    t.is((await fetch(url, { headers: { 'if-none-match': etag } })).status, 304);
    t.is((await fetch(url, { headers: { range: `bytes=${FILE.length}-` } })).status, 416);
    t.is((await fetch(`${service.url}/storage/media/album/2/teaser/none.mp4`)).status, 404);
  } finally {
    await service?.stop();
    await s3.close();
    await rm(s3Dir, { recursive: true, force: true });
  }
});
