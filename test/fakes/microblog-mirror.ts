// A stand-in for a Nitter instance on 127.0.0.1: the same HTML shapes as Nitter's views
// (timeline, status page, error panel, /pic proxy), so the reader meets real markup.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePost {
  id: string;
  /** Plain text as the author wrote it (line breaks, emoji, links, #tags, @mentions). */
  text: string;
  createdAt: string;
  /** Media file names such as `ABCDEF.jpg`; served through `/pic/`. */
  images?: string[];
  pinned?: boolean;
  /** Shown as a retweet of another account's post. */
  retweetOf?: { username: string; displayName: string };
  /** Posts sharing a thread id on one page render as a self-thread (oldest first). */
  threadId?: string;
}

export interface FakeProfile {
  displayName: string;
}

export type FailureMode = 'error' | 'hang';

export interface FakeMirror {
  url: string;
  /** Every request's path and query, in arrival order. */
  requests: string[];
  setPosts(username: string, posts: FakePost[], profile?: FakeProfile): void;
  /** The next `n` page requests (not images or styles) answer 500, or never answer. */
  failNext(n: number, mode?: FailureMode): void;
  close(): Promise<void>;
}

export interface FakeMirrorOptions {
  pageSize?: number;
  /** An address outside the mirror that every timeline page references (must be blocked). */
  thirdPartyUrl?: string;
}

const TWITTER_EPOCH_MS = 1288834974657n;

/** A realistic post id whose embedded time is `createdAt`. */
export function snowflakeFor(createdAt: string, sequence = 0): string {
  const ms = BigInt(new Date(createdAt).getTime());
  return (((ms - TWITTER_EPOCH_MS) << 22n) | BigInt(sequence & 0xfff)).toString();
}

// 8×8 images made with sharp, so <img> elements really decode.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQI12N4FtWDFTEMLQkABetzAY0J8RIAAAAASUVORK5CYII=',
  'base64',
);
const JPEG = Buffer.from(
  '/9j/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0//wAARCAAIAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKAHhr//2Q==',
  'base64',
);

const STYLE_CSS = `body{font-family:"NanumGothic",sans-serif}
.tweet-content{white-space:pre-wrap;line-height:1.3em}
.attachments img{width:100px;height:100px;object-fit:cover}`;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// Nitter's `getTime`: "Nov 21, 2026 · 3:04 AM UTC".
function nitterTime(iso: string): string {
  const d = new Date(iso);
  const hour = d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12;
  const minute = String(d.getUTCMinutes()).padStart(2, '0');
  const meridiem = d.getUTCHours() < 12 ? 'AM' : 'PM';
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} · ${hour}:${minute} ${meridiem} UTC`;
}

function shortTime(iso: string): string {
  const d = new Date(iso);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

// Like Nitter's replaceUrls: links shortened for display, mentions and tags linked locally.
function renderText(text: string): string {
  const pattern = /(https?:\/\/[^\s]+)|(^|[^A-Za-z0-9_])@([A-Za-z0-9_]{1,15})|(^|\s)#([\p{L}\p{N}_]+)/gu;
  let html = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    html += escapeHtml(text.slice(last, match.index));
    if (match[1]) {
      const url = match[1];
      const bare = url.replace(/^https?:\/\/(www\.)?/, '');
      const shown = bare.length > 28 ? `${bare.slice(0, 28)}…` : bare;
      html += `<a href="${escapeHtml(url)}">${escapeHtml(shown)}</a>`;
    } else if (match[3]) {
      html += `${escapeHtml(match[2] ?? '')}<a href="/${match[3]}">@${match[3]}</a>`;
    } else {
      const tag = match[5] ?? '';
      html += `${escapeHtml(match[4] ?? '')}<a href="/search?q=%23${encodeURIComponent(tag)}">#${escapeHtml(tag)}</a>`;
    }
    last = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

function picPath(file: string, small: boolean): string {
  const media = `media/${file}`;
  return small ? `/pic/${encodeURIComponent(`${media}?name=small`)}` : `/pic/orig/${encodeURIComponent(media)}`;
}

function renderAlbum(images: string[]): string {
  const groups = images.length < 3 ? [images] : [images.slice(0, 2), images.slice(2)];
  const rows = groups
    .map(
      (group, i) =>
        `<div class="gallery-row"${i > 0 ? ' style="margin-top: .25em;"' : ''}>` +
        group
          .map(
            (file) =>
              `<div class="attachment image"><a class="still-image" href="${picPath(file, false)}" target="_blank">` +
              `<img src="${picPath(file, true)}" alt="" loading="lazy"></a></div>`,
          )
          .join('') +
        '</div>',
    )
    .join('');
  return `<div class="attachments">${rows}</div>`;
}

interface Author {
  username: string;
  displayName: string;
}

function renderTweet(post: FakePost, owner: Author, opts: { mainTweet?: boolean; extraClass?: string } = {}): string {
  const author: Author = post.retweetOf ?? owner;
  const link = `/${author.username}/status/${post.id}#m`;
  const header =
    (post.retweetOf
      ? `<div class="retweet-header"><span><div class="icon-container"><span class="icon-retweet" title=""></span>${escapeHtml(owner.displayName)} retweeted</div></span></div>`
      : '') +
    (post.pinned
      ? '<div class="pinned"><span><div class="icon-container"><span class="icon-pin" title=""></span>Pinned Tweet</div></span></div>'
      : '');
  const published = opts.mainTweet
    ? `<p class="tweet-published">${nitterTime(post.createdAt)} · Twitter for iPhone</p>`
    : '';
  return (
    `<div class="timeline-item ${opts.extraClass ?? ''}" data-username="${author.username}">` +
    (opts.mainTweet ? '' : `<a class="tweet-link" href="${link}"></a>`) +
    '<div class="tweet-body"><div>' +
    header +
    '<div class="tweet-header">' +
    `<a class="tweet-avatar" href="/${author.username}"><img class="avatar round" src="/pic/profile_images%2F1%2Favatar_bigger.png" alt="" loading="lazy"></a>` +
    '<div class="tweet-name-row"><div class="fullname-and-username">' +
    `<a class="fullname" href="/${author.username}" title="${escapeHtml(author.displayName)}">${escapeHtml(author.displayName)}</a>` +
    `<a class="username" href="/${author.username}" title="@${author.username}">@${author.username}</a>` +
    '</div>' +
    `<span class="tweet-date"><a href="${link}" title="${nitterTime(post.createdAt)}">${shortTime(post.createdAt)}</a></span>` +
    '</div></div></div>' +
    `<div class="tweet-content media-body" dir="auto">${renderText(post.text)}</div>` +
    (post.images?.length ? renderAlbum(post.images) : '') +
    published +
    '<div class="tweet-stats"><span class="tweet-stat"><div class="icon-container"><span class="icon-comment" title=""></span> 12</div></span>' +
    '<span class="tweet-stat"><div class="icon-container"><span class="icon-heart" title=""></span> 1,024</div></span></div>' +
    '</div></div>'
  );
}

function layout(title: string, body: string, extraHead = ''): string {
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">' +
    '<link rel="stylesheet" type="text/css" href="/css/style.css?v=4">' +
    `<title>${escapeHtml(title)}</title>${extraHead}</head>` +
    '<body class="fixed-nav"><nav><div class="inner-nav"><div class="nav-item"><a class="site-name" href="/">nitter</a></div>' +
    '<a href="/"><img class="site-logo" src="/logo.png" alt="Logo"></a><div class="nav-item right"><a href="/settings">⚙</a></div></div></nav>' +
    `<div class="container">${body}</div>` +
    '<script src="/js/infiniteScroll.js" defer></script></body></html>'
  );
}

function errorPage(message: string): string {
  return layout('Error | nitter', `<div class="error-panel"><span>${escapeHtml(message)}</span></div>`);
}

function cursorFor(offset: number): string {
  return `DAAB${Buffer.from(`offset:${offset}`).toString('base64')}`;
}

function offsetFromCursor(cursor: string | null): number | null {
  if (cursor === null) return 0;
  if (!cursor.startsWith('DAAB')) return null;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor.slice(4), 'base64').toString());
  return match ? Number(match[1]) : null;
}

interface Account {
  username: string;
  profile: FakeProfile;
  posts: FakePost[];
}

export async function startFakeMirror(options: FakeMirrorOptions = {}): Promise<FakeMirror> {
  const pageSize = options.pageSize ?? 20;
  const accounts = new Map<string, Account>();
  const requests: string[] = [];
  let failures: { remaining: number; mode: FailureMode } = { remaining: 0, mode: 'error' };

  const thirdParty = options.thirdPartyUrl
    ? `<link rel="preconnect" href="${escapeHtml(options.thirdPartyUrl)}">`
    : '';
  const thirdPartyImage = options.thirdPartyUrl
    ? `<img class="card-image" src="${escapeHtml(options.thirdPartyUrl)}" alt="">`
    : '';

  function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  }

  function timelinePage(account: Account, cursor: string | null): { status: number; html: string } {
    const offset = offsetFromCursor(cursor);
    if (offset === null) return { status: 400, html: errorPage('Invalid cursor') };
    const owner: Author = { username: account.username, displayName: account.profile.displayName };
    const ordered = account.posts.filter((post) => !post.pinned);
    const pinned = account.posts.find((post) => post.pinned);
    const slice = ordered.slice(offset, offset + pageSize);

    let items = '';
    if (offset > 0) {
      items += `<div class="timeline-item show-more"><a href="/${account.username}">Load newest</a></div>`;
    } else if (pinned) {
      items += renderTweet(pinned, owner);
    }
    for (let i = 0; i < slice.length; i += 1) {
      const post = slice[i]!;
      if (post.threadId) {
        const thread: FakePost[] = [];
        while (i < slice.length && slice[i]!.threadId === post.threadId) thread.push(slice[i++]!);
        i -= 1;
        // Nitter sorts a self-thread oldest first inside its thread line.
        thread.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
        items +=
          '<div class="thread-line">' +
          thread.map((p, j) => renderTweet(p, owner, { extraClass: j === thread.length - 1 ? 'thread-last thread' : 'thread' })).join('') +
          '</div>';
      } else {
        items += renderTweet(post, owner);
      }
    }
    if (slice.length > 0) {
      items += `<div class="show-more"><a href="?cursor=${encodeURIComponent(cursorFor(offset + slice.length))}">Load more</a></div>`;
      items += '<div class="top-ref"><div class="icon-container"><a class="icon-down" href="#"></a></div></div>';
    } else if (offset > 0) {
      items += '<div class="timeline-footer"><h2 class="timeline-end">No more items</h2></div>';
    } else {
      items += '<div class="timeline-header"><h2 class="timeline-none">No items found</h2></div>';
    }

    const card =
      '<div class="profile-tab sticky"><div class="profile-card"><div class="profile-card-info">' +
      `<a class="profile-card-fullname" href="/${account.username}" title="${escapeHtml(account.profile.displayName)}">${escapeHtml(account.profile.displayName)}</a>` +
      `<a class="profile-card-username" href="/${account.username}" title="@${account.username}">@${account.username}</a>` +
      `</div></div>${thirdPartyImage}</div>`;
    const body =
      `<div class="profile-tabs">${card}<div class="timeline-container">` +
      `<ul class="tab"><li class="tab-item active"><a href="/${account.username}">Tweets</a></li>` +
      `<li class="tab-item"><a href="/${account.username}/with_replies">Tweets &amp; Replies</a></li></ul>` +
      `<div class="timeline">${items}</div></div></div>`;
    return {
      status: 200,
      html: layout(`${account.profile.displayName} (@${account.username}) | nitter`, body, thirdParty),
    };
  }

  function statusPage(postId: string): { status: number; html: string } {
    for (const account of accounts.values()) {
      const post = account.posts.find((p) => p.id === postId && !p.retweetOf);
      if (!post) continue;
      const owner: Author = { username: account.username, displayName: account.profile.displayName };
      const body =
        '<div class="conversation"><div class="main-thread">' +
        `<div class="main-tweet" id="m">${renderTweet(post, owner, { mainTweet: true })}</div>` +
        '</div><div class="replies" id="r"></div><div class="top-ref"><div class="icon-container"><a class="icon-down" href="#m"></a></div></div></div>';
      return { status: 200, html: layout(`${account.profile.displayName} (@${account.username}): "${post.text.slice(0, 40)}" | nitter`, body) };
    }
    return { status: 404, html: errorPage('Tweet not found') };
  }

  function isPageRequest(path: string): boolean {
    return !/^\/(pic|css|js|fonts)\//.test(path) && path !== '/favicon.ico' && path !== '/logo.png';
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '/';
    requests.push(target);
    const url = new URL(target, 'http://mirror.invalid');
    const path = url.pathname;

    if (isPageRequest(path) && failures.remaining > 0) {
      failures.remaining -= 1;
      if (failures.mode === 'hang') return; // never answer; close() drops the socket
      send(res, 500, 'text/html; charset=utf-8', errorPage('Internal server error'));
      return;
    }

    if (path.startsWith('/css/')) return send(res, 200, 'text/css; charset=utf-8', STYLE_CSS);
    if (path.startsWith('/js/')) return send(res, 200, 'text/javascript; charset=utf-8', '');
    if (path === '/logo.png' || path === '/favicon.ico') return send(res, 200, 'image/png', PNG);
    if (path.startsWith('/pic/')) {
      const decoded = decodeURIComponent(path.slice('/pic/'.length));
      return /\.jpe?g(\?|$)/.test(decoded)
        ? send(res, 200, 'image/jpeg', JPEG)
        : send(res, 200, 'image/png', PNG);
    }

    const status = /^\/([A-Za-z0-9_]{1,15})\/status\/(\d+)\/?$/.exec(path);
    if (status) {
      const page = statusPage(status[2]!);
      return send(res, page.status, 'text/html; charset=utf-8', page.html);
    }
    const profile = /^\/([A-Za-z0-9_]{1,15})\/?$/.exec(path);
    if (profile) {
      const account = accounts.get(profile[1]!.toLowerCase());
      if (!account) {
        return send(res, 404, 'text/html; charset=utf-8', errorPage(`User "${profile[1]}" not found`));
      }
      const page = timelinePage(account, url.searchParams.get('cursor'));
      return send(res, page.status, 'text/html; charset=utf-8', page.html);
    }
    send(res, 404, 'text/html; charset=utf-8', errorPage('Page not found'));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setPosts(username, posts, profile) {
      const sorted = [...posts].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
      accounts.set(username.toLowerCase(), {
        username,
        profile: profile ?? { displayName: username },
        posts: sorted,
      });
    },
    failNext(n, mode = 'error') {
      failures = { remaining: n, mode };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
