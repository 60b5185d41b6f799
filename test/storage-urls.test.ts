// URLs of stored files are built when answering: rows keep storage keys, so data written
// under one PUBLIC_BASE_URL answers with the current one after a restart on another; migration 011
// turns the absolute URLs older versions stored into keys.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { connectDatabase } from '../shared/db/database.ts';
import { migrate } from '../shared/db/migrate.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { createTestDatabase } from './helpers/database.ts';
import { pngImage } from './helpers/images.ts';
import { adminToken, call, startTestService } from './helpers/service.ts';

const logger = createLogger('warn');

test('an image uploaded under one PUBLIC_BASE_URL answers with the new one after a restart, and is served there', async (t) => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'storage-urls-'));
  try {
    const first = await startTestService({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'http://first.example:3000' }, { database });
    let memberName = '';
    let firstUrl = '';
    try {
      await first.running.services.db.none("INSERT INTO members (name, sort_order) VALUES ('하늘', 1)");
      memberName = encodeURIComponent('하늘');
      const form = new FormData();
      form.append('image', new Blob([await pngImage(400, 300, 7)], { type: 'image/png' }), 'face.png');
      const updated = await call(first.url, 'PUT', `/api/members/${memberName}`, { body: form, token: await adminToken(first.url) });
      t.is(updated.status, 200, JSON.stringify(updated.body));
      firstUrl = updated.body.imageUrl;
      t.regex(firstUrl, /^http:\/\/first\.example:3000\/storage\/media\/member\/\d+\/\d+\.png$/);
    } finally {
      await first.running.stop();
    }

    const second = await startTestService({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://second.example' }, { database });
    try {
      const member = await call(second.url, 'GET', `/api/members/${memberName}`);
      t.is(member.status, 200);
      const secondUrl: string = member.body.imageUrl;
      t.is(secondUrl, firstUrl.replace('http://first.example:3000', 'https://second.example'));
      // The same key behind the new address: the bytes are there.
      const served = await fetch(second.url + new URL(secondUrl).pathname);
      t.is(served.status, 200);
      t.is(served.headers.get('content-type'), 'image/png');
      // And a new account's picture too.
      await call(second.url, 'POST', '/auth/register', { json: { email: `urls-${Date.now()}@example.com`, password: 'password1' } });
      const { url } = await second.running.services.db.one<{ url: string }>('SELECT storage_url(profile_url) AS url FROM users ORDER BY id DESC LIMIT 1');
      t.regex(url, /^https:\/\/second\.example\/storage\/media\/profile\/default_profile_\d+\.png$/);
    } finally {
      await second.running.stop();
    }
  } finally {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('migration 011 turns absolute URLs of our storage into keys; other URLs stay', async (t) => {
  const database = await createTestDatabase();
  try {
    // A database as an older version left it: every migration but 011, absolute URLs in the rows.
    const setup = connectDatabase(database.url, logger, 1);
    await migrate(setup.db, logger);
    await setup.db.none("DELETE FROM schema_migrations WHERE version = '011_storage_keys.sql'; DROP FUNCTION storage_url(text)");
    const old = 'http://localhost:3000/storage/media';
    const image = await setup.db.one<{ id: number }>(
      `INSERT INTO images (original_url, medium_url, thumb_url, original_key, medium_key, thumb_key, width, height)
       VALUES ($1, $2, $3, 'member/1/1.png', 'member/1/medium/1.webp', 'member/1/thumb/1.webp', 10, 10) RETURNING id`,
      [`${old}/member/1/1.png`, `${old}/member/1/medium/1.webp`, `${old}/member/1/thumb/1.webp`],
    );
    await setup.db.none("INSERT INTO members (name, image_id) VALUES ('별', $1)", [image.id]);
    const album = await setup.db.one<{ id: number }>("INSERT INTO albums (title, album_type) VALUES ('첫 앨범', '정규') RETURNING id");
    await setup.db.none(
      `INSERT INTO album_teasers (album_id, kind, image_id, original_url, original_key, thumb_url) VALUES
         ($1, 'video', NULL, $2, 'album/1/teasers/1.mp4', NULL),
         ($1, 'image', $3, $4, 'member/1/1.png', $5)`,
      [album.id, `${old}/album/1/teasers/1.mp4`, image.id, `${old}/member/1/1.png`, `${old}/member/1/thumb/1.webp`],
    );
    await setup.db.none(
      `INSERT INTO users (email, password, name, profile_url, verify_token, verify_expires) VALUES
         ('a@example.com', $2, 'a', $1, gen_random_uuid(), now()), ('b@example.com', $2, 'b', 'https://cdn.example/pic.png', gen_random_uuid(), now())`,
      [`${old}/profile/default_profile_4.png`, `$2b$10$${'a'.repeat(53)}`],
    );
    await setup.close();

    const service = await startTestService({ PUBLIC_BASE_URL: 'https://new.example' }, { database });
    try {
      const db = service.running.services.db;
      const stored = await db.one('SELECT original_url, medium_url, thumb_url FROM images WHERE id = $1', [image.id]);
      t.deepEqual(stored, { original_url: 'member/1/1.png', medium_url: 'member/1/medium/1.webp', thumb_url: 'member/1/thumb/1.webp' });
      const users = await db.any('SELECT email, profile_url, storage_url(profile_url) AS url FROM users ORDER BY email');
      t.deepEqual(users, [
        { email: 'a@example.com', profile_url: 'profile/default_profile_4.png', url: 'https://new.example/storage/media/profile/default_profile_4.png' },
        { email: 'b@example.com', profile_url: 'https://cdn.example/pic.png', url: 'https://cdn.example/pic.png' },
      ]);
      const member = await call(service.url, 'GET', `/api/members/${encodeURIComponent('별')}`);
      t.is(member.body.imageUrl, 'https://new.example/storage/media/member/1/1.png');
      const teasers = await call(service.url, 'GET', `/api/albums/${album.id}/teasers`);
      t.deepEqual(teasers.body.map((teaser: { originalUrl: string; thumbUrl: string | null }) => [teaser.originalUrl, teaser.thumbUrl]), [
        ['https://new.example/storage/media/album/1/teasers/1.mp4', null],
        ['https://new.example/storage/media/member/1/1.png', 'https://new.example/storage/media/member/1/thumb/1.webp'],
      ]);
    } finally {
      await service.running.stop();
    }
  } finally {
    await database.drop();
  }
});

test('the migration is in the migrations folder under the number given to it', async (t) => {
  const file = fileURLToPath(new URL('../schemas/migrations/011_storage_keys.sql', import.meta.url));
  t.regex(await readFile(file, 'utf8'), /CREATE FUNCTION storage_url/);
});
