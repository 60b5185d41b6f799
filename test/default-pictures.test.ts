// The 16 default profile pictures new accounts point at (auth-service.md 2.4) exist: drawn into the
// storage at start when missing, served as PNG; a picture already there is not redrawn.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import sharp from 'sharp';
import { createTestDatabase } from './helpers/database.ts';
import { startProcess } from './helpers/service-process.ts';

test('a new account\'s profile picture answers 200 image/png, and all sixteen exist', async (t) => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'default-pictures-'));
  const server = await startProcess(database, { LOG_LEVEL: 'warn' }, { dataDir });
  try {
    const email = `pic-${Date.now()}@example.com`;
    const register = await fetch(`${server.url}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'password1' }) });
    t.true(register.ok, `register: ${register.status}`);
    // The picture as the API answers it: /auth/me needs a verified account, so read the row's URL.
    const { connectDatabase } = await import('../shared/db/database.ts');
    const { createLogger } = await import('../shared/runtime/logger.ts');
    const db = connectDatabase(database.url, createLogger('warn'), 1);
    const row = await db.db.one<{ profile_url: string }>('SELECT profile_url FROM users WHERE email = $1', [email]);
    await db.close();
    const url = row.profile_url.startsWith('http') ? row.profile_url : `${server.url}/storage/media/${row.profile_url}`;
    const picture = await fetch(url);
    t.is(picture.status, 200, url);
    t.is(picture.headers.get('content-type'), 'image/png');
    const meta = await sharp(Buffer.from(await picture.arrayBuffer())).metadata();
    t.is(meta.format, 'png');

    const hashes = new Set<string>();
    for (let n = 1; n <= 16; n++) {
      const response = await fetch(`${server.url}/storage/media/profile/default_profile_${n}.png`);
      t.is(response.status, 200, `default_profile_${n}.png`);
      hashes.add(Buffer.from(await response.arrayBuffer()).toString('base64'));
    }
    t.is(hashes.size, 16, 'sixteen different pictures');

    // A picture already in storage (replaced by the site's own art) survives a restart.
    const file = path.join(server.dataDir, 'storage', 'media', 'profile', 'default_profile_3.png');
    const own = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } }).png().toBuffer();
    await writeFile(file, own);
    t.is(await server.stop(), 0);
    const again = await startProcess(database, { LOG_LEVEL: 'warn' }, { dataDir });
    try {
      t.true((await readFile(file)).equals(own));
      t.is((await fetch(`${again.url}/storage/media/profile/default_profile_3.png`)).status, 200);
    } finally {
      await again.stop();
    }
  } finally {
    await server.stop();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
