// One headless Chromium per process, launched on first use and shared by every bot.
// Pages are short-lived: each call gets a fresh tab that may only talk to the origins it
// names, and the tab is closed whatever happens.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { resolveChromium } from './chromium-executable.ts';

export { BrowserNotFoundError, CHROMIUM_INSTALL_HINT, assertChromiumExists } from './chromium-executable.ts';

export interface BrowserLaunchOptions {
  /** CHROMIUM_PATH; unset: a Chromium on PATH, else the npm-shipped one (chromium-executable.ts). */
  executablePath?: string | null;
  /**
   * Host names the browser may resolve; every other name fails to resolve inside Chromium,
   * which also silences its own background lookups. A new host relaunches the browser.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins (`scheme://host:port`) the browser connects to directly. Every other request goes to
   * a proxy that does not exist and fails, whatever a page's request interception did with it
   * (another port of an allowed host included). A new origin relaunches the browser.
   */
  allowedOrigins?: readonly string[];
}

export interface PageOptions {
  executablePath?: string | null;
  /** Default timeout of navigations and waits on the page. */
  timeoutMs: number;
  /** Origins (`scheme://host:port`) the page may request; everything else is aborted. */
  allowedOrigins: readonly string[];
  /** Page scripts stay off unless asked for: reading server-rendered HTML needs none. */
  javaScriptEnabled?: boolean;
  onBlockedRequest?: (url: string) => void;
}

/** The proxy every request but those to the allowed origins is sent to: `.invalid` never resolves (RFC 6761). */
const UNREACHABLE_PROXY = 'http://unreachable-proxy.invalid:9';

// DEPENDENCIES.md's flags, plus a few more that keep Chromium's own services quiet. Debian's
// wrapper script adds flags of its own (remote extensions, Google API keys), so the
// resolver rules and the proxy are what really keep the browser from reaching anything but our
// origins: the resolver rules by host name, the proxy by host and port. A page's request
// interception is a third layer; once, in a loaded CI run, an image on another port of 127.0.0.1
// (an allowed host) got past it alone (not reproduced in 650 page loads since, how is unknown).
function chromiumArgs(userDataDir: string, hosts: ReadonlySet<string>, direct: ReadonlySet<string>): string[] {
  const resolverRules = ['MAP * ~NOTFOUND', ...[...hosts].map((host) => `EXCLUDE ${host}`)].join(', ');
  // `<-loopback>`: without it Chromium bypasses the proxy for every loopback address.
  const bypass = ['<-loopback>', ...direct].join(';');
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${userDataDir}`,
    `--host-resolver-rules=${resolverRules}`,
    `--proxy-server=${UNREACHABLE_PROXY}`,
    `--proxy-bypass-list=${bypass}`,
    '--disable-domain-reliability',
    '--no-pings',
    '--disable-features=AutofillServerCommunication,CertificateTransparencyComponentUpdater,DialMediaRouteProvider,InterestFeedContentSuggestions',
  ];
}

interface SharedBrowser {
  browser: Browser;
  userDataDir: string;
  hosts: ReadonlySet<string>;
  /** `host:port` of the origins reached without the proxy. */
  direct: ReadonlySet<string>;
  openPages: number;
  retired: boolean;
}

let current: SharedBrowser | null = null;
let launching: Promise<SharedBrowser> | null = null;
const retiredBrowsers = new Set<SharedBrowser>();
let openPages = 0;

async function launch(configured: string | null | undefined, hosts: ReadonlySet<string>, direct: ReadonlySet<string>): Promise<SharedBrowser> {
  const { executablePath } = await resolveChromium({ configured });
  const userDataDir = await mkdtemp(join(tmpdir(), 'schedule-bot-chromium-'));
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      pipe: true,
      args: chromiumArgs(userDataDir, hosts, direct),
      protocolTimeout: 60_000,
    });
  } catch (error) {
    await removeDir(userDataDir);
    throw error;
  }
  const shared: SharedBrowser = { browser, userDataDir, hosts, direct, openPages: 0, retired: false };
  current = shared;
  browser.once('disconnected', () => {
    if (current === shared) current = null;
    retiredBrowsers.delete(shared);
    void removeDir(userDataDir);
  });
  return shared;
}

async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 }).catch(() => {});
}

async function shutDown(shared: SharedBrowser): Promise<void> {
  retiredBrowsers.delete(shared);
  await shared.browser.close().catch(() => {});
  await removeDir(shared.userDataDir);
}

// A browser whose resolver rules lack a newly needed host serves its open pages to the
// end and is then closed; new pages go to a browser launched with the wider rules.
function retire(shared: SharedBrowser): void {
  if (current === shared) current = null;
  shared.retired = true;
  if (shared.openPages === 0) void shutDown(shared);
  else retiredBrowsers.add(shared);
}

function hostsOf(options: BrowserLaunchOptions): Set<string> {
  return new Set(['localhost', '127.0.0.1', ...(options.allowedHosts ?? []).map((host) => host.toLowerCase())]);
}

/** `host:port` of each allowed origin, the form of a proxy bypass rule. */
function directOf(options: BrowserLaunchOptions): Set<string> {
  return new Set(
    (options.allowedOrigins ?? []).map((origin) => {
      const url = new URL(origin);
      return `${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
    }),
  );
}

// The current browser if its resolver rules cover `allowedHosts` and its proxy bypass covers
// `allowedOrigins`, else a new one. With `reservePage` the page is counted before anyone else
// can retire the browser.
async function acquire(options: BrowserLaunchOptions, reservePage: boolean): Promise<SharedBrowser> {
  const wanted = hostsOf(options);
  const direct = directOf(options);
  for (;;) {
    if (launching) {
      await launching.catch(() => {});
    } else {
      const shared = current;
      if (shared?.browser.connected) {
        if ([...wanted].every((host) => shared.hosts.has(host)) && [...direct].every((origin) => shared.direct.has(origin))) {
          if (reservePage) shared.openPages += 1;
          return shared;
        }
        for (const host of shared.hosts) wanted.add(host);
        for (const origin of shared.direct) direct.add(origin);
        retire(shared);
      }
      current = null;
      launching = launch(options.executablePath, new Set(wanted), new Set(direct)).finally(() => {
        launching = null;
      });
      await launching; // a failed launch (no Chromium) rejects here
    }
  }
}

/** The process's browser, launched on first call and again after it disconnected. */
export async function getBrowser(options: BrowserLaunchOptions): Promise<Browser> {
  return (await acquire(options, false)).browser;
}

/** Shut the browser down (process exit, tests) and remove its profile directory. */
export async function closeBrowser(): Promise<void> {
  const pending = launching;
  if (pending) await pending.catch(() => {});
  const shared = current;
  current = null;
  await Promise.all([...retiredBrowsers, ...(shared ? [shared] : [])].map(shutDown));
}

/** Pages opened by `withPage` and not yet closed. */
export function openPageCount(): number {
  return openPages;
}

function isAllowed(url: string, allowedOrigins: ReadonlySet<string>): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url === 'about:blank') return true;
  try {
    return allowedOrigins.has(new URL(url).origin);
  } catch {
    return false;
  }
}

export async function withPage<T>(fn: (page: Page) => Promise<T>, options: PageOptions): Promise<T> {
  const origins = options.allowedOrigins.map((origin) => new URL(origin));
  const allowedOrigins = new Set(origins.map((origin) => origin.origin));
  const shared = await acquire(
    { executablePath: options.executablePath, allowedHosts: origins.map((origin) => origin.hostname), allowedOrigins: options.allowedOrigins },
    true,
  );
  openPages += 1;
  let page: Page | null = null;
  try {
    page = await shared.browser.newPage();
    page.setDefaultNavigationTimeout(options.timeoutMs);
    page.setDefaultTimeout(options.timeoutMs);
    await page.setJavaScriptEnabled(options.javaScriptEnabled ?? false);
    await page.setRequestInterception(true);
    page.on('request', (request: HTTPRequest) => {
      if (request.isInterceptResolutionHandled()) return;
      const url = request.url();
      if (isAllowed(url, allowedOrigins)) {
        request.continue().catch(() => {});
      } else {
        options.onBlockedRequest?.(url);
        request.abort('blockedbyclient').catch(() => {});
      }
    });
    return await fn(page);
  } finally {
    shared.openPages -= 1;
    openPages -= 1;
    await page?.close().catch(() => {});
    if (shared.retired && shared.openPages === 0) void shutDown(shared);
  }
}
