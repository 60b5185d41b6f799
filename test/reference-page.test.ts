// The interactive reference at /api/docs, in real Chromium: the page renders every
// operation of the document from the server's own files and asks no other origin for anything.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import puppeteer from 'puppeteer-core';
import { resolveChromium } from '../workers/bots/chromium-executable.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const chromium = await resolveChromium({ configured: process.env.CHROMIUM_PATH }).then((found) => ({ path: found.executablePath, problem: null }), (error: Error) => ({ path: '', problem: error.message }));

let service: TestService;

test.before(async () => {
  // The document names another host than the one the tests open the page at, as behind a proxy
  // or when a developer opens 127.0.0.1: "Try it out" must still reach this server.
  service = await startTestService({ PUBLIC_BASE_URL: 'https://calendar.example.org' });
});

async function launch(t: ExecutionContext) {
  const profile = await mkdtemp(join(tmpdir(), 'reference-page-'));
  t.teardown(() => rm(profile, { recursive: true, force: true }));
  const browser = await puppeteer.launch({
    executablePath: chromium.path,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`],
  });
  t.teardown(() => browser.close());
  return browser;
}

test.after.always(async () => {
  await service?.stop();
});

(chromium.problem ? test.skip : test)(`/api/docs renders the operations in Chromium and requests nothing from another origin${chromium.problem ? ` (skipped: ${chromium.problem})` : ''}`, async (t) => {
  const browser = await launch(t);
  const page = await browser.newPage();
  // Every Content-Security-Policy violation the page meets (the policy blocks it and says so).
  // (Run in the page: `globalThis` is its window; this project's types have no DOM.)
  type PageGlobal = { violations: string[]; document: { addEventListener(type: string, listener: (event: { violatedDirective: string; blockedURI: string }) => void): void } };
  await page.evaluateOnNewDocument(() => {
    const page = globalThis as unknown as PageGlobal;
    page.violations = [];
    page.document.addEventListener('securitypolicyviolation', (event) => page.violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const consoleViolations: string[] = [];
  page.on('console', (message) => void (message.text().includes('Content Security Policy') && consoleViolations.push(message.text())));
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
  // Opening an operation renders its parameters and examples: still within the policy.
  await page.click('.opblock-summary');
  await page.waitForSelector('.opblock-body', { timeout: 10_000 });
  t.deepEqual(await page.evaluate(() => (globalThis as unknown as PageGlobal).violations), [], 'no Content-Security-Policy violation');
  t.deepEqual(consoleViolations, []);
  t.regex(response?.headers()['content-security-policy'] ?? '', /frame-ancestors 'none'/);
  t.log(`${rendered} operations rendered; ${requested.length} requests, all to ${origin}`);
});

test('/api/docs: a Content-Security-Policy that allows only its own files, and no framing', async (t) => {
  const response = await fetch(`${service.url}/api/docs`);
  t.is(response.status, 200);
  const policy = new Map((response.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values.join(' ')]));
  t.is(policy.get('default-src'), "'none'");
  t.is(policy.get('script-src'), "'self'", 'no inline script, no eval, no other origin');
  t.is(policy.get('style-src'), "'self'");
  t.is(policy.get('frame-ancestors'), "'none'");
  t.is(response.headers.get('x-frame-options'), 'DENY');
  // The page holds no inline script for the policy to block.
  const html = await response.text();
  t.deepEqual([...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>/g)].map((m) => m[0]), []);
  // A revalidation keeps the headers.
  const again = await fetch(`${service.url}/api/docs`, { headers: { 'if-none-match': response.headers.get('etag')! } });
  t.is(again.status, 304);
  t.is(again.headers.get('x-frame-options'), 'DENY');
});

(chromium.problem ? test.skip : test)(`/api/docs: "Try it out" reaches the server that served the page, whatever host the document names${chromium.problem ? ` (skipped: ${chromium.problem})` : ''}`, async (t) => {
  const browser = await launch(t);
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (message) => void (message.text().includes('Content Security Policy') && violations.push(message.text())));
  const requested: string[] = [];
  page.on('request', (request) => void requested.push(request.url()));
  await page.goto(`${service.url}/api/docs#/members/getApiMembers`, { waitUntil: 'networkidle0' });
  const operation = '#operations-members-getApiMembers';
  await page.waitForSelector(`${operation} .try-out__btn`, { timeout: 20_000 });
  await page.click(`${operation} .try-out__btn`);
  await page.waitForSelector(`${operation} .execute`, { timeout: 10_000 });
  await page.click(`${operation} .execute`);
  await page.waitForSelector(`${operation} .live-responses-table .response .response-col_status`, { timeout: 20_000 });
  const status = await page.$eval(`${operation} .live-responses-table .response .response-col_status`, (cell) => cell.textContent?.trim());
  t.is(status, '200');
  t.true(requested.includes(`${service.url}/api/members`), requested.join('\n'));
  t.false(requested.some((url) => url.startsWith('https://calendar.example.org')), 'nothing sent to the host the document names');
  t.deepEqual(violations, []);
});
