// Reads an account's public microblog posts through a Nitter-style mirror in headless
// Chromium: the timeline page by page (newest first) and single posts.

import { TimeoutError } from 'puppeteer-core';
import type { Page } from 'puppeteer-core';
import { CircuitBreaker } from '../../shared/runtime/circuit-breaker.ts';
import { POST_ID_PATTERN, USERNAME_PATTERN } from '../../shared/microblog/post-url.ts';
import { getBrowser, withPage } from './browser.ts';

export interface MicroblogPost {
  postId: string;
  username: string;
  displayName: string;
  text: string;
  /** ISO 8601, UTC. */
  createdAt: string;
  /** The platform's original full-size image URLs. */
  imageUrls: string[];
}

export interface MicroblogReaderOptions {
  mirrorUrl: string;
  /** CHROMIUM_PATH; unset or null: looked up (browser.ts). */
  executablePath?: string | null;
  navigationTimeoutMs?: number;
  breaker?: CircuitBreaker;
}

export interface ReadTimelineOptions {
  /** Paging stops at the first post already known (pinned posts aside). */
  knownPostIds?: ReadonlySet<string> | ((postId: string) => boolean);
  /** Pages to read at most; `Infinity` for a full pass. */
  maxPages?: number;
  /** Called after each page with the pages read and the posts collected so far. */
  onPage?: (pages: number, posts: number) => Promise<void> | void;
}

export type MicroblogReadErrorCode =
  | 'invalid-input'
  | 'not-found'
  | 'timeout'
  | 'unavailable'
  | 'unexpected-page';

const STATUS_BY_CODE: Record<MicroblogReadErrorCode, number> = {
  'invalid-input': 400,
  'not-found': 404,
  timeout: 504,
  unavailable: 502,
  'unexpected-page': 502,
};

export class MicroblogReadError extends Error {
  override readonly name = 'MicroblogReadError';
  readonly code: MicroblogReadErrorCode;
  readonly status: number;

  constructor(code: MicroblogReadErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = STATUS_BY_CODE[code];
  }
}

// ---- What the page hands back: raw strings, interpreted on the Node side. ----

export interface RawMirrorItem {
  linkHref: string | null;
  dateHref: string | null;
  dateTitle: string | null;
  publishedText: string | null;
  fullname: string | null;
  usernameText: string | null;
  text: string | null;
  images: { href: string | null; src: string | null }[];
  pinned: boolean;
  retweet: boolean;
}

// Just the DOM surface the extractor touches; the project compiles without lib "dom".
interface DomNode {
  readonly nodeType: number;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<DomNode>;
}
interface DomElement extends DomNode {
  readonly tagName: string;
  readonly classList: { contains(name: string): boolean };
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
}

// Runs inside Chromium. tsx compiles with keepNames, so this body must not declare named
// functions or function-valued consts (the injected `__name` helper does not exist there).
const extractItems = (items: DomElement[]): RawMirrorItem[] =>
  items.map((item) => {
    const body = item.querySelector(':scope > .tweet-body');
    const header = body?.querySelector('.tweet-header') ?? null;
    const dateLink = header?.querySelector('.tweet-date a') ?? null;
    const fullname = header?.querySelector('.fullname') ?? null;
    const content = body?.querySelector(':scope > .tweet-content') ?? null;

    // Text with line breaks kept whatever the page's CSS; external links at full length
    // (the mirror shows them shortened), mentions and tags as written.
    let text: string | null = null;
    if (content) {
      text = '';
      const stack: DomNode[] = [content];
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (node.nodeType === 3) {
          text += node.textContent ?? '';
          continue;
        }
        if (node.nodeType !== 1) continue;
        const element = node as DomElement;
        if (element !== content) {
          if (element.tagName === 'BR') {
            text += '\n';
            continue;
          }
          if (element.classList.contains('tweet-geo')) continue;
          const href = element.tagName === 'A' ? element.getAttribute('href') : null;
          if (href && /^https?:\/\//i.test(href)) {
            text += href;
            continue;
          }
        }
        for (let i = element.childNodes.length - 1; i >= 0; i -= 1) stack.push(element.childNodes[i]!);
      }
    }

    const images = Array.from(body?.querySelectorAll(':scope > .attachments .attachment.image') ?? []).map(
      (attachment) => ({
        href: attachment.querySelector('a.still-image')?.getAttribute('href') ?? null,
        src: attachment.querySelector('img')?.getAttribute('src') ?? null,
      }),
    );

    return {
      linkHref: item.querySelector(':scope > a.tweet-link')?.getAttribute('href') ?? null,
      dateHref: dateLink?.getAttribute('href') ?? null,
      dateTitle: dateLink?.getAttribute('title') ?? null,
      publishedText: body?.querySelector(':scope > .tweet-published')?.textContent ?? null,
      fullname: fullname?.getAttribute('title') ?? fullname?.textContent ?? null,
      usernameText: header?.querySelector('.username')?.textContent ?? null,
      text,
      images,
      pinned: body?.querySelector('.pinned') != null,
      retweet: body?.querySelector('.retweet-header') != null,
    };
  });

// ---- Pure interpretation of what the mirror shows. ----

const STATUS_HREF = /^\/([A-Za-z0-9_]{1,15})\/status\/([1-9][0-9]{0,18})(?:[?#].*)?$/;

export function parseStatusHref(href: string | null): { username: string; postId: string } | null {
  const match = href ? STATUS_HREF.exec(href) : null;
  return match ? { username: match[1]!, postId: match[2]! } : null;
}

const MONTHS: Record<string, number> = {
  Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11,
};
const MIRROR_TIME = /^\s*([A-Z][a-z]{2}) (\d{1,2}), (\d{4})\s*·\s*(\d{1,2}):(\d{2}) (AM|PM) UTC/;

/** Nitter's "Nov 21, 2026 · 3:04 AM UTC" → ISO string, or null. */
export function parseMirrorTime(title: string | null): string | null {
  const match = title ? MIRROR_TIME.exec(title) : null;
  if (!match) return null;
  const month = MONTHS[match[1]!];
  const day = Number(match[2]);
  const hour12 = Number(match[4]);
  const minute = Number(match[5]);
  if (month === undefined || day < 1 || day > 31 || hour12 < 1 || hour12 > 12 || minute > 59) return null;
  const hour = (hour12 % 12) + (match[6] === 'PM' ? 12 : 0);
  const date = new Date(Date.UTC(Number(match[3]), month, day, hour, minute));
  if (date.getUTCDate() !== day) return null; // "Feb 31"
  return date.toISOString();
}

const TWITTER_EPOCH_MS = 1288834974657n;

/** The creation time embedded in a post id (ids from 2012 on carry one). */
export function snowflakeTime(postId: string): string | null {
  if (!POST_ID_PATTERN.test(postId) || postId.length < 16) return null;
  const ms = (BigInt(postId) >> 22n) + TWITTER_EPOCH_MS;
  const date = new Date(Number(ms));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const IMAGE_FORMATS = new Set(['jpg', 'jpeg', 'png', 'webp', 'gif']);
const MEDIA_PATH = /^(?:https?:\/\/pbs\.twimg\.com\/)?media\/([A-Za-z0-9_-]+)\.([a-z]+)(?:[?:].*)?$/i;

/**
 * A mirror image link (`/pic/orig/media%2FXYZ.jpg`, `/pic/media%2FXYZ.jpg%3Fname%3Dsmall`,
 * `/pic/media%2FXYZ.jpg?name=small`, or Nitter's base64 `/pic/enc/...`) → the platform's
 * original `https://pbs.twimg.com/media/XYZ?format=jpg&name=orig`; null when not a photo.
 */
export function mirrorImageToOriginal(link: string | null): string | null {
  if (!link) return null;
  let path: string;
  try {
    path = new URL(link, 'http://mirror.invalid').pathname;
  } catch {
    return null;
  }
  const pic = /^\/pic\/(?:orig\/)?(enc\/)?(.+)$/.exec(path);
  if (!pic) return null;
  let media: string;
  try {
    media = pic[1]
      ? Buffer.from(pic[2]!.replace(/\.[a-z]+$/i, ''), 'base64url').toString('utf8')
      : decodeURIComponent(pic[2]!);
  } catch {
    return null;
  }
  const match = MEDIA_PATH.exec(media);
  if (!match) return null;
  const format = match[2]!.toLowerCase() === 'jpeg' ? 'jpg' : match[2]!.toLowerCase();
  if (!IMAGE_FORMATS.has(format)) return null;
  return `https://pbs.twimg.com/media/${match[1]}?format=${format}&name=orig`;
}

interface ParsedItem extends MicroblogPost {
  pinned: boolean;
  retweet: boolean;
}

/** One extracted item → a post, or null for items that are not a post (notices, gaps). */
export function toPost(raw: RawMirrorItem): ParsedItem | null {
  const ref = parseStatusHref(raw.linkHref) ?? parseStatusHref(raw.dateHref);
  if (!ref || raw.text === null) return null;
  const createdAt =
    parseMirrorTime(raw.dateTitle) ?? parseMirrorTime(raw.publishedText) ?? snowflakeTime(ref.postId);
  if (!createdAt) return null;
  const imageUrls: string[] = [];
  for (const image of raw.images) {
    const url = mirrorImageToOriginal(image.href) ?? mirrorImageToOriginal(image.src);
    if (url && !imageUrls.includes(url)) imageUrls.push(url);
  }
  const displayName = (raw.fullname ?? '').trim();
  return {
    postId: ref.postId,
    username: ref.username,
    displayName: displayName || ref.username,
    text: raw.text.replace(/\r\n?/g, '\n').replaceAll('\u00a0', ' ').trim(),
    createdAt,
    imageUrls,
    pinned: raw.pinned,
    retweet: raw.retweet,
  };
}

function compareNewestFirst(a: { postId: string }, b: { postId: string }): number {
  const x = BigInt(a.postId);
  const y = BigInt(b.postId);
  return x === y ? 0 : x > y ? -1 : 1;
}

function publicPost(item: ParsedItem): MicroblogPost {
  const { pinned: _pinned, retweet: _retweet, ...post } = item;
  return post;
}

/**
 * The "Load more" link to follow: only the same account's timeline on the mirror, with a
 * cursor, and never a page already read (a mirror that repeats a cursor would loop).
 */
export function nextTimelineUrl(
  hrefs: readonly string[],
  context: { current: string; mirrorOrigin: string; username: string; visited: ReadonlySet<string> },
): string | null {
  for (const href of hrefs) {
    let next: URL;
    try {
      next = new URL(href, context.current);
    } catch {
      continue;
    }
    if (next.origin !== context.mirrorOrigin) continue;
    if (next.pathname.toLowerCase() !== `/${context.username.toLowerCase()}`) continue;
    if (!next.searchParams.get('cursor')) continue;
    next.hash = '';
    if (context.visited.has(next.href)) continue;
    return next.href;
  }
  return null;
}

// ---- The reader. ----

type PageOutcome<T> = { found: true; value: T } | { found: false };

export class MicroblogReader {
  readonly #mirrorOrigin: string;
  readonly #executablePath: string | null;
  readonly #timeoutMs: number;
  readonly #breaker: CircuitBreaker;

  constructor(options: MicroblogReaderOptions) {
    const mirror = new URL(options.mirrorUrl);
    if (mirror.protocol !== 'http:' && mirror.protocol !== 'https:') {
      throw new TypeError(`mirrorUrl must be http(s): ${options.mirrorUrl}`);
    }
    this.#mirrorOrigin = mirror.origin;
    this.#executablePath = options.executablePath ?? null;
    this.#timeoutMs = options.navigationTimeoutMs ?? 15_000;
    this.#breaker =
      options.breaker ?? new CircuitBreaker({ failureThreshold: 5, resetAfterMs: 5 * 60_000 });
  }

  get breaker(): CircuitBreaker {
    return this.#breaker;
  }

  /** Posts of `username` newest first, stopping at a known post, the end or `maxPages`. */
  async readTimeline(username: string, options: ReadTimelineOptions = {}): Promise<MicroblogPost[]> {
    assertUsername(username);
    const known = options.knownPostIds;
    const isKnown =
      typeof known === 'function' ? known : known ? (id: string) => known.has(id) : () => false;
    const maxPages = options.maxPages ?? 10;

    const collected: ParsedItem[] = [];
    const seen = new Set<string>();
    const visited = new Set<string>();
    let pageUrl: string | null = `${this.#mirrorOrigin}/${username}`;

    for (let pageNumber = 1; pageUrl !== null && pageNumber <= maxPages; pageNumber += 1) {
      visited.add(pageUrl);
      const { items, moreHrefs } = await this.#load(pageUrl, readTimelinePage);
      // A self-thread is shown oldest first, so order each page by id before walking it.
      const posts = items
        .map(toPost)
        .filter((post): post is ParsedItem => post !== null)
        .filter((post) => !post.retweet && post.username.toLowerCase() === username.toLowerCase())
        .sort(compareNewestFirst);

      let reachedKnown = false;
      for (const post of posts) {
        if (seen.has(post.postId)) continue;
        if (isKnown(post.postId)) {
          if (post.pinned) continue; // an old pinned post says nothing about where new ones end
          reachedKnown = true;
          break;
        }
        seen.add(post.postId);
        collected.push(post);
      }
      await options.onPage?.(pageNumber, collected.length);
      if (reachedKnown) break;
      pageUrl = nextTimelineUrl(moreHrefs, { current: pageUrl, mirrorOrigin: this.#mirrorOrigin, username, visited });
    }
    return collected.sort(compareNewestFirst).map(publicPost);
  }

  /** One post from its status page. */
  async readPost(username: string, postId: string): Promise<MicroblogPost> {
    assertUsername(username);
    if (!POST_ID_PATTERN.test(postId)) {
      throw new MicroblogReadError('invalid-input', '게시물 번호가 올바르지 않습니다.');
    }
    const url = `${this.#mirrorOrigin}/${username}/status/${postId}`;
    const items = await this.#load(url, readStatusPage, '게시물을 찾을 수 없습니다.');
    const post = items.map(toPost).find((item) => item?.postId === postId);
    if (!post) {
      throw new MicroblogReadError('unexpected-page', '미러 페이지에서 게시물을 읽지 못했습니다.');
    }
    return publicPost(post);
  }

  // Every navigation: the shared browser, a fresh page with the timeout, the breaker.
  async #load<T>(
    url: string,
    extract: (page: Page) => Promise<T>,
    notFoundMessage = '계정을 찾을 수 없습니다.',
  ): Promise<T> {
    // Launch outside the breaker: a missing browser says nothing about the mirror.
    await getBrowser({ executablePath: this.#executablePath, allowedHosts: [new URL(this.#mirrorOrigin).hostname], allowedOrigins: [this.#mirrorOrigin] });
    const outcome = await this.#breaker.run(() =>
      withPage<PageOutcome<T>>(
        async (page) => {
          let status: number;
          try {
            const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: this.#timeoutMs });
            status = response?.status() ?? 0;
          } catch (error) {
            if (error instanceof TimeoutError) {
              throw new MicroblogReadError('timeout', '미러 서버가 제시간에 응답하지 않았습니다.', { cause: error });
            }
            throw new MicroblogReadError('unavailable', '미러 서버에 연결하지 못했습니다.', { cause: error });
          }
          // "Not found" is an answer, not an outage: hand it past the breaker as a value.
          if (status === 404) return { found: false };
          if (status !== 200) {
            throw new MicroblogReadError('unavailable', `미러 서버가 오류로 응답했습니다 (HTTP ${status}).`);
          }
          return { found: true, value: await extract(page) };
        },
        {
          executablePath: this.#executablePath,
          timeoutMs: this.#timeoutMs,
          allowedOrigins: [this.#mirrorOrigin],
        },
      ),
    );
    if (!outcome.found) throw new MicroblogReadError('not-found', notFoundMessage);
    return outcome.value;
  }
}

function assertUsername(username: string): void {
  if (!USERNAME_PATTERN.test(username)) {
    throw new MicroblogReadError('invalid-input', '계정 이름이 올바르지 않습니다.');
  }
}

async function readTimelinePage(page: Page): Promise<{ items: RawMirrorItem[]; moreHrefs: string[] }> {
  if ((await page.$('.timeline')) === null) {
    throw new MicroblogReadError('unexpected-page', '미러 페이지 형식을 알 수 없습니다.');
  }
  const items = await page.$$eval('.timeline .timeline-item', extractItems);
  // "Load newest" is also a .show-more, but a .timeline-item and without a cursor.
  const moreHrefs = await page.$$eval('.timeline > .show-more:not(.timeline-item) a', (links) =>
    links.map((link) => link.getAttribute('href') ?? '').filter((href) => href.includes('cursor=')),
  );
  return { items, moreHrefs };
}

async function readStatusPage(page: Page): Promise<RawMirrorItem[]> {
  if ((await page.$('.main-tweet')) === null) {
    throw new MicroblogReadError('unexpected-page', '미러 페이지 형식을 알 수 없습니다.');
  }
  return page.$$eval('.main-tweet > .timeline-item', extractItems);
}
