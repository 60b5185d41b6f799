// The interactive reference at /api/docs (issue 38), in real Chromium: the page renders every
// operation of the document from the server's own files and asks no other origin for anything.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import puppeteer from 'puppeteer-core';
import { resolveChromium } from '../workers/bots/chromium-executable.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const chromium = await resolveChromium({ configured: process.env.CHROMIUM_PATH }).then((found) => ({ path: found.executablePath, problem: null }), (error: Error) => ({ path: '', problem: error.message }));

let service: TestService;

test.before(async () => {
  service = await startTestService();
});

test.after.always(async () => {
  await service?.stop();
});

(chromium.problem ? test.skip : test)(`/api/docs renders the operations in Chromium and requests nothing from another origin${chromium.problem ? ` (skipped: ${chromium.problem})` : ''}`, async (t) => {
  const profile = await mkdtemp(join(tmpdir(), 'reference-page-'));
  t.teardown(() => rm(profile, { recursive: true, force: true }));
  const browser = await puppeteer.launch({
    executablePath: chromium.path,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`],
  });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const requested: string[] = [];
  page.on('request', (request) => void requested.push(request.url()));
  const response = await page.goto(`${service.url}/api/docs`, { waitUntil: 'networkidle0' });
  t.is(response?.status(), 200);
  await page.waitForSelector('.opblock', { timeout: 20_000 });
  const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.values(document.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
  const rendered = await page.$$eval('.opblock', (blocks) => blocks.length);
  t.is(rendered, operations, 'one block per operation');
  t.true(await page.$$eval('.opblock-summary-path', (paths) => paths.some((path) => path.textContent?.includes('/api/schedules'))));
  const origin = new URL(service.url).origin;
  const foreign = requested.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
  t.deepEqual(foreign, []);
  t.true(requested.some((url) => url.endsWith('/api/openapi.json')));
  t.log(`${rendered} operations rendered; ${requested.length} requests, all to ${origin}`);
});
