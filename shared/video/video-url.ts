// Video ids out of what administrators paste: page URLs of the platform or a bare id.
// Only parses; never fetches.

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const MAX_INPUT_LENGTH = 2048;

const WATCH_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
const SHORT_LINK_HOSTS = new Set(['youtu.be', 'www.youtu.be']);
const ALL_HOSTS = [...WATCH_HOSTS, ...SHORT_LINK_HOSTS];

// Path forms whose second segment is the id: /shorts/ID, /live/ID, /embed/ID.
const ID_PATH = /^\/(?:shorts|live|embed)\/([^/]+)\/?$/;

export function isVideoId(value: string): boolean {
  return VIDEO_ID.test(value);
}

/** The 11-character video id in a platform URL or a bare id; null for anything else. */
export function extractVideoId(input: string): string | null {
  if (typeof input !== 'string' || input.length > MAX_INPUT_LENGTH) return null;
  const text = input.trim();
  if (text === '') return null;
  if (VIDEO_ID.test(text)) return text;

  // `www.youtube.com/watch?v=…` pasted without a scheme.
  const lower = text.toLowerCase();
  const withScheme = ALL_HOSTS.some((host) => lower.startsWith(`${host}/`)) ? `https://${text}` : text;

  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '' || url.port !== '') return null;

  const host = url.hostname.toLowerCase();
  let candidate: string | null | undefined;
  if (SHORT_LINK_HOSTS.has(host)) {
    candidate = /^\/([^/]+)\/?$/.exec(url.pathname)?.[1];
  } else if (WATCH_HOSTS.has(host)) {
    candidate =
      url.pathname === '/watch' || url.pathname === '/watch/'
        ? url.searchParams.get('v')
        : ID_PATH.exec(url.pathname)?.[1];
  } else {
    return null;
  }
  return candidate !== null && candidate !== undefined && VIDEO_ID.test(candidate) ? candidate : null;
}
