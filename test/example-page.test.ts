// The example page (examples/month.html with the built SDK) in real Chromium against the real
// server: it shows the month, follows it live, and after the browser goes offline and comes back
// it shows every change made meanwhile (a create, an update, a delete), each once. Over WebSocket
// (Chromium has one) and over SSE read through fetch. Chromium's offline emulation fails new
// requests and closes WebSockets but lets a response body already streaming go on (measured), so
// the SSE page reaches the server through a proxy whose link is cut at the same moment.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import puppeteer, { type Page } from 'puppeteer-core';
import { resolveChromium } from '../workers/bots/chromium-executable.ts';
import { startCuttableProxy, type CuttableProxy } from './helpers/cuttable-proxy.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';
import { waitFor } from './helpers/wait.ts';

const chromium = await resolveChromium({ configured: process.env.CHROMIUM_PATH }).then((found) => ({ path: found.executablePath, problem: null }), (error: Error) => ({ path: '', problem: error.message }));

let service: TestService;
let token: string;
let build: string;
let pages: Server;
let pagesUrl: string;
let proxy: CuttableProxy;

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

test.before(async () => {
  // Heartbeats every second: the page's idle timeout can be short.
  service = await startTestService({ LIVE_HEARTBEAT_SECONDS: '1' });
  token = await adminToken(service.url);
  proxy = await startCuttableProxy(Number(new URL(service.url).port));
  // The SDK as the page loads it: built with its own tsconfig.
  build = await mkdtemp(join(tmpdir(), 'sdk-build-'));
  await promisify(execFile)(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', 'sdk/tsconfig.json', '--outDir', build]);
  // A static server of another origin than the API, as a page on its own site would be.
  const roots: Array<[string, string]> = [['/examples/', resolve('examples')], ['/sdk/dist/', build]];
  pages = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const root = roots.find(([prefix]) => path.startsWith(prefix));
    const file = root && normalize(join(root[1], path.slice(root[0].length)));
    if (!root || !file || !file.startsWith(root[1])) return void response.writeHead(404).end();
    readFile(file).then((body) => response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body), () => response.writeHead(404).end());
  });
  await new Promise<void>((ready) => pages.listen(0, '127.0.0.1', ready));
  pagesUrl = `http://127.0.0.1:${(pages.address() as { port: number }).port}`;
});

test.after.always(async () => {
  await new Promise((done) => (pages ? pages.close(done) : done(undefined)));
  await proxy?.close();
  await service?.stop();
  if (build) await rm(build, { recursive: true, force: true });
});

async function write(method: string, path: string, json?: unknown): Promise<number> {
  const response = await call(service.url, method, path, { token, ...(json === undefined ? {} : { json }) });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as number;
}

/** The page's list: the title of each item, in order. */
const titles = (page: Page) => page.$$eval('#schedules li', (items) => items.map((item) => item.lastChild?.textContent ?? ''));
const until = (what: string, probe: () => Promise<boolean>, timeoutMs = 15_000) => waitFor(what, probe, timeoutMs, 100);

for (const transport of ['auto', 'sse'] as const) {
  const month = transport === 'auto' ? '2037-05' : '2037-06';
  (chromium.problem ? test.skip : test.serial)(`the example page follows ${month} live over ${transport === 'auto' ? 'WebSocket' : 'SSE'} and catches up after the network comes back${chromium.problem ? ` (skipped: ${chromium.problem})` : ''}`, async (t) => {
    const first = await write('POST', '/api/schedules', { categoryId: 2, title: '예제 첫 일정', date: `${month}-03`, time: '10:00' });
    const profile = await mkdtemp(join(tmpdir(), 'example-page-'));
    t.teardown(() => rm(profile, { recursive: true, force: true }));
    const browser = await puppeteer.launch({
      executablePath: chromium.path,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`],
    });
    t.teardown(() => browser.close());
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => void problems.push(String(error)));
    const viaProxy = transport === 'sse';
    const query = new URLSearchParams({ api: viaProxy ? proxy.url : service.url, month, transport, idle: '3000' });
    await page.goto(`${pagesUrl}/examples/month.html?${query}`);
    await until('the month and a live status', async () => (await titles(page)).includes('예제 첫 일정') && (await page.$eval('#status', (el) => el.getAttribute('data-status'))) === 'live');

    const second = await write('POST', '/api/schedules', { categoryId: 2, title: '예제 두번째', date: `${month}-01` });
    await until('a change while online', async () => (await titles(page))[0] === '예제 두번째');

    // Offline: every change now is made while the page cannot hear of it.
    await page.setOfflineMode(true);
    if (viaProxy) proxy.cut();
    await until('the page to notice', async () => (await page.$eval('#status', (el) => el.getAttribute('data-status'))) !== 'live', 10_000);
    await write('PUT', `/api/schedules/${first}`, { categoryId: 2, title: '예제 첫 일정 (변경)', date: `${month}-03`, time: '10:00' });
    await write('DELETE', `/api/schedules/${second}`);
    await write('POST', '/api/schedules', { categoryId: 2, title: '예제 오프라인 중 추가', date: `${month}-20` });
    await new Promise((done) => setTimeout(done, 1000));
    t.deepEqual(await titles(page), ['예제 두번째', '예제 첫 일정'], 'nothing arrives while offline');
    if (viaProxy) proxy.restore();
    await page.setOfflineMode(false);
    await until('the changes made while offline', async () => JSON.stringify(await titles(page)) === JSON.stringify(['예제 첫 일정 (변경)', '예제 오프라인 중 추가']), 30_000);
    t.is(await page.$eval('#status', (el) => el.getAttribute('data-status')), 'live');
    const reconnects = await page.evaluate(() => (globalThis as unknown as { followed: { subscription: { reconnects: number } } }).followed.subscription.reconnects);
    t.true(reconnects >= 1, `reconnected ${reconnects} time(s)`);
    // And live again afterwards.
    await write('POST', '/api/schedules', { categoryId: 2, title: '예제 복구 후', date: `${month}-25` });
    await until('a change after the network came back', async () => (await titles(page)).at(-1) === '예제 복구 후');
    t.deepEqual(await page.$$eval('#schedules li', (items) => items.length), 3, 'each item once');
    t.deepEqual(problems, []);
  });
}
