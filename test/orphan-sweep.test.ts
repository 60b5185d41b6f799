// Files and rows agree after a crash: files an upload stored before a crash (no row
// points at them) and unfinished `.part` writes are removed by the sweep the actors role runs at
// start; files a row references, recent files and files outside the upload prefixes stay.
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { connectDatabase } from '../shared/db/database.ts';
import { migrate } from '../shared/db/migrate.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { createStorage } from '../shared/storage/create-storage.ts';
import { sweepOrphans } from '../workers/actors/orphan-sweep.ts';
import { createTestDatabase } from './helpers/database.ts';
import { startTestService } from './helpers/service.ts';

const TWO_HOURS_AGO = new Date(Date.now() - 2 * 60 * 60 * 1000);
const exists = (file: string) => stat(file).then(() => true, () => false);

async function place(root: string, relative: string, old: boolean): Promise<string> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'bytes');
  if (old) await utimes(file, TWO_HOURS_AGO, TWO_HOURS_AGO);
  return file;
}

test('after a simulated crash the start sweep removes orphans and old .part files, keeps referenced, recent and foreign files, and counts them in /metrics', async (t) => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'orphan-sweep-'));
  try {
    // The rows of a committed upload (an event poster and a video teaser)...
    const setup = connectDatabase(database.url, createLogger('silent'), 1);
    await migrate(setup.db, createLogger('silent'));
    await setup.db.none(
      `INSERT INTO images (original_url, medium_url, thumb_url, original_key, medium_key, thumb_key, width, height)
       VALUES ('u', 'u', 'u', 'event/1/poster/01.jpeg', 'event/1/poster/medium/01.webp', 'event/1/poster/thumb/01.webp', 10, 10)`,
    );
    const album = await setup.db.one<{ id: number }>("INSERT INTO albums (title, album_type) VALUES ('앨범', '정규') RETURNING id");
    await setup.db.none("INSERT INTO album_teasers (album_id, kind, original_url, original_key) VALUES ($1, 'video', 'u', 'album/1/teasers/1.mp4')", [album.id]);
    await setup.close();

    // ...and what a kill -9 left behind, all written two hours ago.
    const bucket = path.join(dataDir, 'storage', 'media');
    const kept = await Promise.all([
      place(bucket, 'event/1/poster/01.jpeg', true),
      place(bucket, 'event/1/poster/medium/01.webp', true),
      place(bucket, 'event/1/poster/thumb/01.webp', true),
      place(bucket, 'album/1/teasers/1.mp4', true),
      place(bucket, 'event/9/poster/02.jpeg', false), // an upload in progress: too young to judge
      place(bucket, 'profile/default_profile_1.png', true), // not an upload prefix
    ]);
    const orphans = await Promise.all([
      place(bucket, 'event/2/poster/01.jpeg', true),
      place(bucket, 'event/2/poster/medium/01.webp', true),
      place(bucket, 'album/1/photos/5.jpeg', true),
      place(bucket, 'member/3/1700000000000.png', true),
    ]);
    const oldPart = await place(path.join(dataDir, 'storage', '.tmp'), 'abc.part', true);
    const newPart = await place(path.join(dataDir, 'storage', '.tmp'), 'def.part', false);

    const service = await startTestService({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, { database });
    try {
      const deadline = Date.now() + 15_000;
      let metrics = '';
      while (Date.now() < deadline) {
        metrics = await (await fetch(`${service.metricsUrl}/metrics`)).text();
        if (/storage_orphans_removed_total\{kind="object"\} [1-9]/.test(metrics)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const file of orphans) t.false(await exists(file), `orphan removed: ${path.relative(bucket, file)}`);
      t.false(await exists(oldPart), 'old .part removed');
      t.true(await exists(newPart), 'a .part being written stays');
      for (const file of kept) t.true(await exists(file), `kept: ${path.relative(bucket, file)}`);
      t.regex(metrics, /storage_orphans_removed_total\{kind="object"\} 4\b/);
      t.regex(metrics, /storage_orphans_removed_total\{kind="part"\} 1\b/);

      // The periodic sweep over the same storage finds nothing more.
      const again = await sweepOrphans({ db: service.running.services.db, storage: service.running.services.storage, logger: createLogger('silent') });
      t.deepEqual(again, { objects: [], parts: [], folders: [] });
      // Still served: the sweep kept the files a row references.
      t.is((await fetch(`${service.url}/storage/media/event/1/poster/01.jpeg`)).status, 200);
    } finally {
      await service.stop();
    }
  } finally {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('empty folders left by failed uploads are removed once old; a folder with a file, or just made, stays', async (t) => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'orphan-sweep-'));
  const db = connectDatabase(database.url, createLogger('silent'), 2);
  try {
    await migrate(db.db, createLogger('silent'));
    const storage = await createStorage({ kind: 'local', dataDir, bucket: 'media', publicBaseUrl: 'http://127.0.0.1' });
    const bucket = path.join(dataDir, 'storage', 'media');
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    // A failed upload's folders (event/<id>/poster/{medium,thumb}), old; one just made; one with a kept file.
    for (const folder of ['event/9/poster/medium', 'event/9/poster/thumb', 'album/7/photos', 'event/10/poster']) await mkdir(path.join(bucket, folder), { recursive: true });
    for (const folder of ['event/9/poster/medium', 'event/9/poster/thumb', 'event/9/poster', 'event/9', 'album/7/photos', 'album/7']) await utimes(path.join(bucket, folder), hoursAgo, hoursAgo);
    await place(bucket, 'member/3/1700000000000.png', true);
    await db.db.none(
      `INSERT INTO images (original_url, medium_url, thumb_url, original_key, medium_key, thumb_key, width, height)
       VALUES ('k', 'k', 'k', 'member/3/1700000000000.png', 'member/3/m.webp', 'member/3/t.webp', 1, 1)`,
    );
    await utimes(path.join(bucket, 'member/3'), hoursAgo, hoursAgo);
    const result = await sweepOrphans({ db: db.db, storage, logger: createLogger('silent') });
    t.deepEqual([...result.folders].sort(), ['album/7', 'album/7/photos', 'event/9', 'event/9/poster', 'event/9/poster/medium', 'event/9/poster/thumb']);
    t.false(await exists(path.join(bucket, 'event/9')));
    t.true(await exists(path.join(bucket, 'event/10/poster')), 'just made: an upload may be writing into it');
    t.true(await exists(path.join(bucket, 'member/3/1700000000000.png')));
    // An upload into a removed folder still works: put makes it again.
    await storage.put('event/9/poster/01.jpeg', new Uint8Array([1, 2, 3]), 'image/jpeg');
    t.true(await exists(path.join(bucket, 'event/9/poster/01.jpeg')));
  } finally {
    await db.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('an actors-less process (ROLE=edge) does not sweep', async (t) => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'orphan-sweep-'));
  try {
    const orphan = await place(path.join(dataDir, 'storage', 'media'), 'event/2/poster/01.jpeg', true);
    const service = await startTestService({ DATA_DIR: dataDir, ROLE: 'edge' }, { database });
    try {
      await new Promise((r) => setTimeout(r, 500));
      t.true(await exists(orphan));
      t.regex(await (await fetch(`${service.metricsUrl}/metrics`)).text(), /storage_orphans_removed_total\{kind="object"\} 0\b/);
    } finally {
      await service.stop();
    }
  } finally {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
});

// ---- S3 ---------------------------------------------------------------------------------------------

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
// s3rver is CommonJS without type declarations.
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: Record<string, unknown>) => S3rverInstance;

test('S3: the sweep lists the bucket under the upload prefixes and deletes only unreferenced objects', async (t) => {
  const s3Dir = await mkdtemp(path.join(tmpdir(), 's3rver-sweep-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
  const database = await createTestDatabase();
  const db = connectDatabase(database.url, createLogger('silent'), 2);
  try {
    const { port } = await s3.run();
    const storage = await createStorage({ kind: 's3', url: `http://127.0.0.1:${port}`, bucket: 'media', accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1' });
    await migrate(db.db, createLogger('silent'));
    await db.db.none(
      `INSERT INTO images (original_url, medium_url, thumb_url, original_key, medium_key, thumb_key, width, height)
       VALUES ('k', 'k', 'k', 'event/1/poster/01.jpeg', 'event/1/poster/medium/01.webp', 'event/1/poster/thumb/01.webp', 1, 1)`,
    );
    const bytes = new Uint8Array([1, 2, 3]);
    const referenced = ['event/1/poster/01.jpeg', 'event/1/poster/medium/01.webp', 'event/1/poster/thumb/01.webp'];
    const orphaned = ['event/2/poster/01.jpeg', 'album/4/photos/1.png', 'member/1/2.png'];
    for (const key of [...referenced, ...orphaned, 'profile/default_profile_1.png']) await storage.put(key, bytes, 'image/png');

    // Just written: too young for the sweep.
    t.deepEqual(await sweepOrphans({ db: db.db, storage, logger: createLogger('silent') }), { objects: [], parts: [], folders: [] });
    // Two hours later the orphans go.
    const later = () => Date.now() + 2 * 60 * 60 * 1000;
    const result = await sweepOrphans({ db: db.db, storage, logger: createLogger('silent'), now: later });
    t.deepEqual([...result.objects].sort(), [...orphaned].sort());
    for (const key of orphaned) t.is(await storage.openFile(key), null, key);
    for (const key of [...referenced, 'profile/default_profile_1.png']) {
      const file = await storage.openFile(key);
      t.truthy(file, key);
      file?.release();
    }
  } finally {
    await db.close();
    await database.drop();
    await s3.close();
    await rm(s3Dir, { recursive: true, force: true });
  }
});
