// Pure helpers for microblog post addresses: which URLs an administrator may paste, and
// how a post's UTC time becomes the calendar's Seoul date and time.

export interface PostRef {
  username: string;
  postId: string;
}

export interface ParsePostUrlOptions {
  /** The configured mirror front end (for example `https://nitter.example`); optional. */
  mirrorUrl?: string | undefined;
}

const PLATFORM_HOSTS = new Set([
  'x.com',
  'www.x.com',
  'mobile.x.com',
  'twitter.com',
  'www.twitter.com',
  'mobile.twitter.com',
]);

export const USERNAME_PATTERN = /^[A-Za-z0-9_]{1,15}$/;
// Snowflake ids are at most 19 digits; no leading zero so each post has one spelling.
export const POST_ID_PATTERN = /^[1-9][0-9]{0,18}$/;

const STATUS_PATH = /^\/([A-Za-z0-9_]{1,15})\/status\/([1-9][0-9]{0,18})(?:\/photo\/[1-4])?\/?$/;
const SCHEMELESS_PLATFORM = /^(?:(?:www|mobile)\.)?(?:x|twitter)\.com\//i;
const MAX_INPUT_LENGTH = 2048;

// Path segments that are not accounts (`/i/status/<id>` names no user).
const RESERVED_NAMES = new Set(['i', 'home', 'search', 'explore', 'settings', 'intent', 'share']);

export function parsePostUrl(input: string, options: ParsePostUrlOptions = {}): PostRef | null {
  if (typeof input !== 'string') return null;
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_INPUT_LENGTH) return null;
  // The URL parser silently drops tabs and newlines inside; refuse them instead.
  if (/[\s\u0000-\u001f\u007f]/.test(trimmed)) return null;

  const candidate = SCHEMELESS_PLATFORM.test(trimmed) ? `https://${trimmed}` : trimmed;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  if (!isPlatformOrigin(url) && !isMirrorOrigin(url, options.mirrorUrl)) return null;

  const match = STATUS_PATH.exec(url.pathname);
  if (!match) return null;
  const username = match[1]!;
  const postId = match[2]!;
  if (RESERVED_NAMES.has(username.toLowerCase())) return null;
  return { username, postId };
}

function isPlatformOrigin(url: URL): boolean {
  return url.port === '' && PLATFORM_HOSTS.has(url.hostname);
}

function isMirrorOrigin(url: URL, mirrorUrl: string | undefined): boolean {
  if (!mirrorUrl) return false;
  let mirror: URL;
  try {
    mirror = new URL(mirrorUrl);
  } catch {
    return false;
  }
  return mirror.origin !== 'null' && url.origin === mirror.origin;
}

export interface SeoulDateTime {
  /** `YYYY-MM-DD` */
  date: string;
  /** `HH:MM` */
  time: string;
}

const seoulFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Seoul',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

export function toSeoulDateTime(iso: string): SeoulDateTime {
  const instant = new Date(iso);
  if (typeof iso !== 'string' || Number.isNaN(instant.getTime())) {
    throw new RangeError(`not a date-time: ${String(iso)}`);
  }
  const parts: Record<string, string> = {};
  for (const part of seoulFormat.formatToParts(instant)) parts[part.type] = part.value;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
  };
}
