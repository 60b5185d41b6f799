// Object storage (ARCHITECTURE.md, Configuration: STORAGE_URL unset → DATA_DIR/storage served by the
// edge at /storage; set → S3-compatible endpoint). Record URLs are `{storage_url}/<bucket>/<key>`
// (auth-service.md, profile_url). The S3 half runs against s3rver on 127.0.0.1.
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import sharp from 'sharp';
import { contentTypeForKey, sniffContentType } from '../shared/storage/content-type.ts';
import { LocalStorage } from '../shared/storage/local.ts';
import { S3Storage } from '../shared/storage/s3.ts';
import { createStorage } from '../shared/storage/create-storage.ts';
import { StorageError, StorageKeyError, type Storage } from '../shared/storage/storage.ts';

const PUBLIC_BASE_URL = 'http://localhost:3000';
const BUCKET = 'media';
const SECRET = 'top secret: outside the bucket';

let dataDir: string;
let local: LocalStorage;

test.before(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'storage-test-'));
  local = (await createStorage({ kind: 'local', dataDir, publicBaseUrl: PUBLIC_BASE_URL, bucket: BUCKET })) as LocalStorage;
  // Files a traversal would reach: beside the bucket, at the storage root and above it.
  await writeFile(path.join(dataDir, 'secret.txt'), SECRET);
  await writeFile(path.join(dataDir, 'storage', 'secret.txt'), SECRET);
  await mkdir(path.join(dataDir, 'storage', 'other'), { recursive: true });
  await writeFile(path.join(dataDir, 'storage', 'other', 'secret.txt'), SECRET);
  await writeFile(path.join(dataDir, 'storage', '.tmp', 'half-written.part'), SECRET);
  await mkdir(path.join(local.bucketDir, 'links'), { recursive: true });
  await symlink(path.join(dataDir, 'secret.txt'), path.join(local.bucketDir, 'links', 'outside.json'));
  await symlink(dataDir, path.join(local.bucketDir, 'links', 'outside-dir'));
  await local.put('inside/real.json', new TextEncoder().encode('{"ok":true}'), 'application/json');
  await symlink(path.join(local.bucketDir, 'inside', 'real.json'), path.join(local.bucketDir, 'links', 'inside.json'));
});

test.after.always(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

// ---- local directory --------------------------------------------------------------------------

test('local: put writes DATA_DIR/storage/<bucket>/<key>; urlFor is PUBLIC_BASE_URL/storage/<bucket>/<key>', async (t) => {
  const key = 'event/12/poster/01.webp';
  const bytes = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3]);
  await local.put(key, bytes, 'image/webp');
  t.is((await stat(path.join(dataDir, 'storage', BUCKET, 'event', '12', 'poster', '01.webp'))).size, bytes.length);
  t.is(local.urlFor(key), `${PUBLIC_BASE_URL}/storage/${BUCKET}/${key}`);

  const served = await local.serveLocalFile(`${BUCKET}/${key}`);
  t.truthy(served);
  t.deepEqual([...served!.bytes], [...bytes]);
  t.is(served!.contentType, 'image/webp');
  t.is(served!.size, bytes.length);
  t.regex(served!.etag, /^"[0-9a-f-]+"$/);
});

test('local: a key with spaces, plus and Hangul round-trips through urlFor and serveLocalFile', async (t) => {
  const key = 'album/3/사진 1+2.jpeg';
  await local.put(key, new Uint8Array([0xff, 0xd8, 0xff, 0xdb]), 'image/jpeg');
  const url = local.urlFor(key);
  t.is(url, `${PUBLIC_BASE_URL}/storage/${BUCKET}/album/3/%EC%82%AC%EC%A7%84%201%2B2.jpeg`);
  const served = await local.serveLocalFile(url.slice(`${PUBLIC_BASE_URL}/storage/`.length));
  t.is(served?.contentType, 'image/jpeg');
  t.is(served?.size, 4);
});

test('local: overwriting replaces the file whole, changes the ETag and leaves no temporary file', async (t) => {
  const key = 'overwrite/a.json';
  await local.put(key, new TextEncoder().encode('{"v":1}'), 'application/json');
  const first = await local.serveLocalFile(`${BUCKET}/${key}`);
  await local.put(key, new TextEncoder().encode('{"v":22}'), 'application/json');
  const second = await local.serveLocalFile(`${BUCKET}/${key}`);
  t.is(text(second!.bytes), '{"v":22}');
  t.not(first!.etag, second!.etag);
  t.deepEqual(await readdir(path.join(local.bucketDir, 'overwrite')), ['a.json']);
});

test('local: concurrent puts of one key leave one complete version', async (t) => {
  const key = 'race/doc.json';
  const versions = Array.from({ length: 12 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(50_000 + i) }));
  await Promise.all(versions.map((body) => local.put(key, new TextEncoder().encode(body), 'application/json')));
  const served = await local.serveLocalFile(`${BUCKET}/${key}`);
  t.true(versions.includes(text(served!.bytes)));
});

test('local: a directory, or the temporary one, removed while the process runs is made again by the next put; a put that cannot be stored leaves no temporary file', async (t) => {
  // A storage of its own: removing its temporary directory must not race the other tests' puts.
  const own = await mkdtemp(path.join(tmpdir(), 'storage-dirs-'));
  t.teardown(() => rm(own, { recursive: true, force: true }));
  const storage = (await createStorage({ kind: 'local', dataDir: own, publicBaseUrl: PUBLIC_BASE_URL, bucket: BUCKET })) as LocalStorage;
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  await storage.put('event/7/poster/01.png', bytes, 'image/png');
  await rm(path.join(storage.bucketDir, 'event'), { recursive: true });
  await rm(path.join(storage.root, '.tmp'), { recursive: true });
  await storage.put('event/7/poster/02.png', bytes, 'image/png');
  t.deepEqual([...(await storage.read('event/7/poster/02.png'))!.bytes], [...bytes]);
  t.is(await storage.read('event/7/poster/01.png'), null);
  // A file where a directory of the key should be: refused, and nothing half-written is left.
  await writeFile(path.join(storage.bucketDir, 'event', '8'), 'a file');
  await t.throwsAsync(storage.put('event/8/poster/01.png', bytes, 'image/png'));
  t.deepEqual(await readdir(path.join(storage.root, '.tmp')), []);
});

test('local: delete removes the files; missing keys are fine', async (t) => {
  await local.put('gone/1.png', new Uint8Array([1]), 'image/png');
  await local.put('gone/2.png', new Uint8Array([2]), 'image/png');
  await local.delete(['gone/1.png', 'gone/2.png', 'gone/never-there.png']);
  t.is(await local.serveLocalFile(`${BUCKET}/gone/1.png`), null);
  t.is(await local.read('gone/2.png'), null);
  await t.notThrowsAsync(local.delete([]));
});

test('local: read returns the stored file by key', async (t) => {
  await local.put('read/x.gif', new Uint8Array([0x47, 0x49, 0x46]), 'image/gif');
  const file = await local.read('read/x.gif');
  t.is(file?.contentType, 'image/gif');
  t.is(await local.read('read/missing.gif'), null);
});

test('local: a symlink that stays inside the bucket is served', async (t) => {
  const served = await local.serveLocalFile(`${BUCKET}/links/inside.json`);
  t.is(served && text(served.bytes), '{"ok":true}');
});

const TRAVERSALS: Array<[string, string]> = [
  ['../ to the storage root', `${BUCKET}/../secret.txt`],
  ['../../ to DATA_DIR', `${BUCKET}/../../secret.txt`],
  ['leading ../', '../secret.txt'],
  ['%2e%2e/', `${BUCKET}/%2e%2e/secret.txt`],
  ['%2E%2E/%2E%2E/', `${BUCKET}/%2E%2E/%2E%2E/secret.txt`],
  ['.%2e/', `${BUCKET}/.%2e/secret.txt`],
  ['..%2f', `${BUCKET}/..%2fsecret.txt`],
  ['%2e%2e%2f%2e%2e%2f', `${BUCKET}/%2e%2e%2f%2e%2e%2fsecret.txt`],
  ['double-encoded %252e%252e', `${BUCKET}/%252e%252e/secret.txt`],
  ['absolute path', '/etc/passwd'],
  ['absolute after the bucket', `${BUCKET}//etc/passwd`],
  ['encoded absolute', `${BUCKET}/%2fetc%2fpasswd`],
  ['NUL byte', `${BUCKET}/inside/real.json%00.png`],
  ['raw NUL byte', `${BUCKET}/inside/real.json\u0000.png`],
  ['backslash', `${BUCKET}/..\\secret.txt`],
  ['encoded backslash', `${BUCKET}/..%5csecret.txt`],
  ['malformed percent-encoding', `${BUCKET}/%zz.png`],
  ['another directory under the storage root', 'other/secret.txt'],
  ['the temporary directory', '.tmp/half-written.part'],
  ['a symlink to a file outside', `${BUCKET}/links/outside.json`],
  ['a path through a symlinked directory outside', `${BUCKET}/links/outside-dir/secret.txt`],
  ['the bucket directory itself', BUCKET],
  ['a directory inside the bucket', `${BUCKET}/inside`],
  ['trailing slash', `${BUCKET}/inside/`],
  ['empty', ''],
  ['missing file', `${BUCKET}/inside/nothing.json`],
];

for (const [name, relativePath] of TRAVERSALS) {
  test(`local: serveLocalFile refuses ${name}`, async (t) => {
    t.is(await local.serveLocalFile(relativePath), null);
  });
}

const BAD_KEYS: Array<[string, string]> = [
  ['empty', ''],
  ['absolute', '/etc/passwd'],
  ['.. segment', 'a/../../secret.txt'],
  ['leading ..', '../secret.txt'],
  ['backslash', 'a\\..\\b.png'],
  ['NUL', 'a\u0000.png'],
  ['over 512 characters', `${'a/'.repeat(254)}abcd.png`],
  ['a segment over 255 bytes', `a/${'가'.repeat(86)}.png`],
  ['empty segment', 'a//b.png'],
  ['. segment', './a.png'],
];

for (const [name, key] of BAD_KEYS) {
  test(`keys: ${name} is refused by put, delete and urlFor`, async (t) => {
    await t.throwsAsync(local.put(key, new Uint8Array([1]), 'image/png'), { instanceOf: StorageKeyError });
    await t.throwsAsync(local.delete(['fine.png', key]), { instanceOf: StorageKeyError });
    t.throws(() => local.urlFor(key), { instanceOf: StorageKeyError });
  });
}

test('keys: exactly 512 characters (segments up to 255 bytes) is accepted', async (t) => {
  const key = `${'k'.repeat(251)}/${'k'.repeat(251)}/${'k'.repeat(4)}.png`;
  t.is(key.length, 512);
  await t.notThrowsAsync(local.put(key, new Uint8Array([1]), 'image/png'));
});

test('createStorage takes the project Config: STORAGE_URL unset gives local storage', async (t) => {
  const storage = await createStorage({
    dataDir,
    publicBaseUrl: 'https://fan.example',
    storage: { url: null, bucket: 'photos', accessKey: null, secretKey: null, region: 'us-east-1' },
  });
  t.is(storage.kind, 'local');
  t.is(storage.urlFor('a/b.png'), 'https://fan.example/storage/photos/a/b.png');
  t.true((await stat(path.join(dataDir, 'storage', 'photos'))).isDirectory());
});

// ---- content types ----------------------------------------------------------------------------

const EXTENSIONS: Array<[string, string]> = [
  ['a.jpg', 'image/jpeg'],
  ['a.JPEG', 'image/jpeg'],
  ['a.png', 'image/png'],
  ['a.webp', 'image/webp'],
  ['a.gif', 'image/gif'],
  ['a.avif', 'image/avif'],
  ['a.mp4', 'video/mp4'],
  ['a.webm', 'video/webm'],
  ['a.mov', 'video/quicktime'],
  ['a.json', 'application/json'],
  ['a.svg', 'application/octet-stream'],
  ['dir.png/noextension', 'application/octet-stream'],
  ['.png', 'application/octet-stream'],
];

test('content types by extension', (t) => {
  for (const [key, type] of EXTENSIONS) t.is(contentTypeForKey(key), type, key);
});

function isoBmff(major: string, ...compatible: string[]): Uint8Array {
  const brands = [major, '\0\0\0\0', ...compatible].join('');
  const box = new Uint8Array(8 + brands.length + 16);
  new DataView(box.buffer).setUint32(0, 8 + brands.length);
  box.set(new TextEncoder().encode(`ftyp${brands}`), 4);
  return box;
}

function ebml(docType: string): Uint8Array {
  return Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x80 | docType.length, ...new TextEncoder().encode(docType), 0, 0]);
}

test('content sniffing by magic bytes', async (t) => {
  const picture = () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } });
  const cases: Array<[string, Uint8Array, string | null]> = [
    ['JPEG', await picture().jpeg().toBuffer(), 'image/jpeg'],
    ['PNG', await picture().png().toBuffer(), 'image/png'],
    ['GIF', await picture().gif().toBuffer(), 'image/gif'],
    ['GIF87a', new TextEncoder().encode('GIF87a\u0001\u0000'), 'image/gif'],
    ['WebP', await picture().webp().toBuffer(), 'image/webp'],
    ['AVIF', await picture().avif({ effort: 0 }).toBuffer(), 'image/avif'],
    ['MP4 (isom)', isoBmff('isom', 'iso2', 'avc1', 'mp41'), 'video/mp4'],
    ['MP4 (mp42)', isoBmff('mp42', 'mp41'), 'video/mp4'],
    ['MOV', isoBmff('qt  ', 'qt  '), 'video/quicktime'],
    ['AVIF by compatible brand', isoBmff('mif1', 'avif', 'miaf'), 'image/avif'],
    ['HEIC', isoBmff('heic', 'mif1', 'heic'), null],
    ['WebM', ebml('webm'), 'video/webm'],
    ['Matroska', ebml('matroska'), null],
    ['RIFF that is not WebP (WAV)', new TextEncoder().encode('RIFF\u0000\u0000\u0000\u0000WAVEfmt '), null],
    ['text posing as .jpg', new TextEncoder().encode('hello, this is text'), null],
    ['SVG', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), null],
    ['empty', new Uint8Array(0), null],
    ['two bytes of JPEG', new Uint8Array([0xff, 0xd8]), null],
  ];
  for (const [name, bytes, type] of cases) t.is(sniffContentType(bytes), type, name);
});

// ---- S3-compatible (s3rver) -------------------------------------------------------------------

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;
// s3rver is CommonJS without type declarations.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

const S3_ACCESS_KEY = 'S3RVER';
const S3_SECRET_KEY = 'S3RVER';

let s3server: S3rverInstance | null = null;
let s3Url = '';
let s3Dir = '';

test.before(async () => {
  s3Dir = await mkdtemp(path.join(tmpdir(), 's3rver-test-'));
  s3server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
  const { port } = await s3server.run();
  s3Url = `http://127.0.0.1:${port}`;
});

test.after.always(async () => {
  await s3server?.close();
  if (s3Dir) await rm(s3Dir, { recursive: true, force: true });
});

async function s3Storage(bucket: string): Promise<Storage> {
  return createStorage({ kind: 's3', url: s3Url, bucket, accessKey: S3_ACCESS_KEY, secretKey: S3_SECRET_KEY, region: 'us-east-1' });
}

test('s3: createStorage creates a missing bucket, and ensureBucket on an existing one is fine', async (t) => {
  const storage = (await s3Storage('created-at-start')) as S3Storage;
  await t.notThrowsAsync(storage.ensureBucket());
  await t.notThrowsAsync(s3Storage('created-at-start'));
});

test('s3: urlFor is STORAGE_URL/<bucket>/<key> (path-style)', async (t) => {
  const storage = await s3Storage('urls');
  t.is(storage.urlFor('event/1/poster/01.jpeg'), `${s3Url}/urls/event/1/poster/01.jpeg`);
  t.is(storage.urlFor('a b/c+d.png'), `${s3Url}/urls/a%20b/c%2Bd.png`);
});

test('s3: put stores the bytes with their content type; read gets them back', async (t) => {
  const storage = await s3Storage(BUCKET);
  const bytes = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } }).webp().toBuffer();
  await storage.put('event/7/poster/01.webp', bytes, 'image/webp');
  const file = await storage.read!('event/7/poster/01.webp');
  t.deepEqual(Buffer.from(file!.bytes), bytes);
  t.is(file!.contentType, 'image/webp');
  t.truthy(file!.etag);
});

test('s3: keys with spaces, plus, parentheses and Hangul round-trip', async (t) => {
  const storage = await s3Storage(BUCKET);
  const key = "album/9/사진 (1)+'final'!.jpeg";
  await storage.put(key, new Uint8Array([0xff, 0xd8, 0xff]), 'image/jpeg');
  t.deepEqual([...(await storage.read!(key))!.bytes], [0xff, 0xd8, 0xff]);
  await storage.delete([key]);
  t.is(await storage.read!(key), null);
});

test('s3: delete removes several objects at once; missing keys are fine', async (t) => {
  const storage = await s3Storage(BUCKET);
  const keys = ['gone/1.png', 'gone/2.png', 'gone/3 & <4>.png'];
  for (const key of keys) await storage.put(key, new Uint8Array([1, 2, 3]), 'image/png');
  await storage.delete([...keys, 'gone/never-there.png']);
  for (const key of keys) t.is(await storage.read!(key), null, key);
  await t.notThrowsAsync(storage.delete([]));
});

test('s3: invalid keys are refused before any request', async (t) => {
  const storage = await s3Storage(BUCKET);
  await t.throwsAsync(storage.put('../x.png', new Uint8Array([1]), 'image/png'), { instanceOf: StorageKeyError });
  await t.throwsAsync(storage.delete(['ok.png', 'a\\b']), { instanceOf: StorageKeyError });
});

test('s3: refused credentials surface the status and name no credential', async (t) => {
  // s3rver checks the access key id (not SigV4 signatures): an unknown one gives 403 InvalidAccessKeyId.
  const accessKey = 'AKIAUNKNOWNKEY000000';
  const secretKey = 'wrong-secret-key-0123456789';
  const error = await t.throwsAsync(
    createStorage({ kind: 's3', url: s3Url, bucket: 'never-created', accessKey, secretKey, region: 'us-east-1' }),
    { instanceOf: StorageError },
  );
  t.is(error?.status, 403);
  t.regex(error!.message, /HeadBucket/);
  t.false(error!.message.includes(secretKey));
  t.false(error!.message.includes(accessKey));
});

test('s3: an unreachable endpoint is a StorageError without a status', async (t) => {
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const error = await t.throwsAsync(
    createStorage({ kind: 's3', url: `http://127.0.0.1:${port}`, bucket: BUCKET, accessKey: 'k', secretKey: 's3cr3t-value', region: 'us-east-1' }),
    { instanceOf: StorageError },
  );
  t.is(error?.status, null);
  t.is(error?.code, 'STORAGE_UNREACHABLE');
  t.false(error!.message.includes('s3cr3t-value'));
});
