// A local stand-in for the video platform's Data API v3: real HTTP on 127.0.0.1, the wire
// shapes of channels.list, playlistItems.list and videos.list, key checks, quota accounting
// (1 unit per list call) and the platform's error bodies.

import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeVideo {
  videoId: string;
  title: string;
  /** ISO instant. */
  publishedAt: string;
  description?: string;
  /** ISO 8601 duration as the platform writes it; default `PT3M30S`. */
  duration?: string;
  liveBroadcastContent?: 'none' | 'live' | 'upcoming';
  /** Private videos show up in playlists as "Private video" entries and never in videos.list. */
  privacyStatus?: 'public' | 'private';
}

export interface FakeRequest {
  /** `channels`, `playlistItems`, `videos`, or the unknown path segment. */
  endpoint: string;
  params: Record<string, string>;
  status: number;
  /** Quota units charged. */
  cost: number;
}

export interface FakeVideoPlatform {
  /** Base URL to give the client, like `https://www.googleapis.com/youtube/v3`. */
  url: string;
  close(): Promise<void>;
  setChannel(channelId: string, videos: FakeVideo[], options?: { title?: string }): void;
  setQuotaExceeded(exceeded: boolean): void;
  /** The next request (each call queues one) answers with this status, error reason and message. */
  failNext(status: number, reason?: string, message?: string): void;
  /** The next request (each call queues one) waits this long before answering. */
  delayNext(ms: number): void;
  requests: FakeRequest[];
  /** Units charged so far. */
  readonly quotaUsed: number;
}

export interface FakeVideoPlatformOptions {
  port?: number;
  /** When set, any other key is refused; otherwise any non-empty key is accepted. */
  apiKey?: string;
  /** Units available before every call answers quotaExceeded. Unlimited by default. */
  dailyQuota?: number;
}

interface FakeChannel {
  channelId: string;
  title: string;
  uploadsPlaylistId: string;
  videos: FakeVideo[];
}

interface ErrorDetail {
  message: string;
  domain: string;
  reason: string;
  location?: string;
  locationType?: string;
}

class PlatformFailure extends Error {
  constructor(
    readonly status: number,
    readonly detail: ErrorDetail,
  ) {
    super(detail.message);
  }
}

const QUOTA_MESSAGE =
  'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.';
const BASE_PATH = '/youtube/v3';
const PLAYLIST_PARTS = new Set(['contentDetails', 'id', 'snippet', 'status']);
const VIDEO_PARTS = new Set([
  'contentDetails',
  'id',
  'liveStreamingDetails',
  'localizations',
  'player',
  'recordingDetails',
  'snippet',
  'statistics',
  'status',
  'topicDetails',
]);
const CHANNEL_PARTS = new Set(['brandingSettings', 'contentDetails', 'id', 'snippet', 'statistics', 'status', 'topicDetails']);

function errorBody(status: number, detail: ErrorDetail): object {
  return { error: { code: status, message: detail.message, errors: [detail] } };
}

function defaultFailure(status: number, reason?: string): ErrorDetail {
  if (reason === 'quotaExceeded') return { message: QUOTA_MESSAGE, domain: 'youtube.quota', reason };
  const fallback =
    status >= 500 ? 'backendError' : status === 404 ? 'notFound' : status === 403 ? 'forbidden' : status === 429 ? 'rateLimitExceeded' : 'badRequest';
  const message = status >= 500 ? 'Backend Error' : status === 404 ? 'Not Found' : 'Request failed';
  return { message, domain: 'global', reason: reason ?? fallback };
}

function parameterError(reason: string, location: string, message: string, status = 400): PlatformFailure {
  return new PlatformFailure(status, { message, domain: 'youtube.parameter', reason, location, locationType: 'parameter' });
}

function etagOf(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('base64url').slice(0, 27);
}

function thumbnails(videoId: string): object {
  const at = (file: string, width: number, height: number) => ({
    url: `https://i.ytimg.com/vi/${videoId}/${file}.jpg`,
    width,
    height,
  });
  return {
    default: at('default', 120, 90),
    medium: at('mqdefault', 320, 180),
    high: at('hqdefault', 480, 360),
    standard: at('sddefault', 640, 480),
    maxres: at('maxresdefault', 1280, 720),
  };
}

function requestedParts(params: URLSearchParams, allowed: Set<string>): Set<string> {
  const part = params.get('part');
  if (part === null || part === '') {
    throw parameterError('missingRequiredParameter', 'part', 'No filter selected. Expected one of: part');
  }
  const parts = new Set(part.split(',').map((name) => name.trim()));
  for (const name of parts) {
    if (!allowed.has(name)) {
      throw new PlatformFailure(400, { message: name, domain: 'youtube.part', reason: 'unknownPart', location: 'part', locationType: 'parameter' });
    }
  }
  return parts;
}

function readMaxResults(params: URLSearchParams): number {
  const raw = params.get('maxResults');
  if (raw === null) return 5;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > 50) {
    throw parameterError('invalidParameter', 'maxResults', `Invalid value '${raw}'. Values must be within the range: [0, 50]`);
  }
  return value;
}

// Page tokens are opaque to clients and bound to the playlist they came from.
function encodePageToken(playlistId: string, offset: number): string {
  return `EAAa${Buffer.from(JSON.stringify({ p: playlistId, o: offset })).toString('base64url')}`;
}

function decodePageToken(token: string, playlistId: string): number {
  try {
    if (!token.startsWith('EAAa')) throw new Error('prefix');
    const decoded = JSON.parse(Buffer.from(token.slice(4), 'base64url').toString('utf8')) as { p?: unknown; o?: unknown };
    if (decoded.p !== playlistId || typeof decoded.o !== 'number' || !Number.isInteger(decoded.o) || decoded.o < 0) {
      throw new Error('mismatch');
    }
    return decoded.o;
  } catch {
    throw parameterError('invalidPageToken', 'pageToken', "The request specifies an invalid page token.");
  }
}

const newestFirst = (a: FakeVideo, b: FakeVideo): number => Date.parse(b.publishedAt) - Date.parse(a.publishedAt);

export async function startFakeVideoPlatform(options: FakeVideoPlatformOptions = {}): Promise<FakeVideoPlatform> {
  const channels = new Map<string, FakeChannel>();
  const requests: FakeRequest[] = [];
  const failures: { status: number; reason?: string; message?: string }[] = [];
  const delays: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let quotaExceeded = false;
  let quotaUsed = 0;

  const channelOfPlaylist = (playlistId: string): FakeChannel | undefined =>
    [...channels.values()].find((channel) => channel.uploadsPlaylistId === playlistId);

  function listChannels(params: URLSearchParams): object {
    const parts = requestedParts(params, CHANNEL_PARTS);
    const ids = params.get('id');
    if (ids === null || ids === '') {
      throw parameterError('missingRequiredParameter', 'id', 'No filter selected. Expected one of: forHandle, forUsername, id, mine, mySubscribers, categoryId, managedByMe');
    }
    const items = ids
      .split(',')
      .map((id) => channels.get(id))
      .filter((channel): channel is FakeChannel => channel !== undefined)
      .map((channel) => {
        const item: Record<string, unknown> = { kind: 'youtube#channel', etag: etagOf(channel.channelId), id: channel.channelId };
        if (parts.has('snippet')) item.snippet = { title: channel.title, description: '', thumbnails: {} };
        if (parts.has('contentDetails')) {
          item.contentDetails = { relatedPlaylists: { likes: '', uploads: channel.uploadsPlaylistId } };
        }
        return item;
      });
    const body: Record<string, unknown> = {
      kind: 'youtube#channelListResponse',
      etag: etagOf(items),
      pageInfo: { totalResults: items.length, resultsPerPage: 5 },
    };
    // The platform leaves `items` out entirely when nothing matched.
    if (items.length > 0) body.items = items;
    return body;
  }

  function listPlaylistItems(params: URLSearchParams): object {
    const parts = requestedParts(params, PLAYLIST_PARTS);
    const playlistId = params.get('playlistId');
    if (playlistId === null || playlistId === '') {
      throw parameterError('missingRequiredParameter', 'playlistId', 'No filter selected. Expected one of: id, playlistId');
    }
    const maxResults = readMaxResults(params);
    const channel = channelOfPlaylist(playlistId);
    if (channel === undefined) {
      throw new PlatformFailure(404, {
        message: "The playlist identified with the request's <code>playlistId</code> parameter cannot be found.",
        domain: 'youtube.playlistItem',
        reason: 'playlistNotFound',
        location: 'playlistId',
        locationType: 'parameter',
      });
    }
    const token = params.get('pageToken');
    const offset = token === null || token === '' ? 0 : decodePageToken(token, playlistId);
    const ordered = [...channel.videos].sort(newestFirst);
    const slice = ordered.slice(offset, offset + maxResults);

    const items = slice.map((video, index) => {
      const isPrivate = video.privacyStatus === 'private';
      const item: Record<string, unknown> = {
        kind: 'youtube#playlistItem',
        etag: etagOf([playlistId, video.videoId]),
        id: Buffer.from(`${playlistId}.${video.videoId}`).toString('base64url'),
      };
      if (parts.has('snippet')) {
        item.snippet = {
          publishedAt: video.publishedAt,
          channelId: channel.channelId,
          title: isPrivate ? 'Private video' : video.title,
          description: isPrivate ? 'This video is private.' : (video.description ?? ''),
          thumbnails: isPrivate ? {} : thumbnails(video.videoId),
          channelTitle: channel.title,
          playlistId,
          position: offset + index,
          resourceId: { kind: 'youtube#video', videoId: video.videoId },
          ...(isPrivate ? {} : { videoOwnerChannelTitle: channel.title, videoOwnerChannelId: channel.channelId }),
        };
      }
      if (parts.has('contentDetails')) {
        item.contentDetails = isPrivate
          ? { videoId: video.videoId }
          : { videoId: video.videoId, videoPublishedAt: video.publishedAt };
      }
      if (parts.has('status')) item.status = { privacyStatus: video.privacyStatus ?? 'public' };
      return item;
    });

    const body: Record<string, unknown> = {
      kind: 'youtube#playlistItemListResponse',
      etag: etagOf([playlistId, offset, maxResults, items]),
    };
    if (offset + maxResults < ordered.length) body.nextPageToken = encodePageToken(playlistId, offset + maxResults);
    if (offset > 0) body.prevPageToken = encodePageToken(playlistId, Math.max(0, offset - maxResults));
    body.items = items;
    body.pageInfo = { totalResults: ordered.length, resultsPerPage: maxResults };
    return body;
  }

  function listVideos(params: URLSearchParams): object {
    const parts = requestedParts(params, VIDEO_PARTS);
    const idParam = params.get('id');
    if (idParam === null || idParam === '') {
      throw parameterError('missingRequiredParameter', 'id', 'No filter selected. Expected one of: myRating, id, chart');
    }
    const ids = idParam.split(',');
    // The real API refuses more than 50 ids in one call.
    if (ids.length > 50) throw parameterError('invalidParameter', 'id', 'The request specifies more than 50 video ids.');

    const byId = new Map<string, { video: FakeVideo; channel: FakeChannel }>();
    for (const channel of channels.values()) {
      for (const video of channel.videos) byId.set(video.videoId, { video, channel });
    }
    const items = ids.flatMap((id) => {
      const found = byId.get(id);
      if (found === undefined || found.video.privacyStatus === 'private') return [];
      const { video, channel } = found;
      const item: Record<string, unknown> = { kind: 'youtube#video', etag: etagOf(video), id: video.videoId };
      if (parts.has('snippet')) {
        item.snippet = {
          publishedAt: video.publishedAt,
          channelId: channel.channelId,
          title: video.title,
          description: video.description ?? '',
          thumbnails: thumbnails(video.videoId),
          channelTitle: channel.title,
          categoryId: '10',
          liveBroadcastContent: video.liveBroadcastContent ?? 'none',
          localized: { title: video.title, description: video.description ?? '' },
        };
      }
      if (parts.has('contentDetails')) {
        item.contentDetails = {
          duration: video.duration ?? 'PT3M30S',
          dimension: '2d',
          definition: 'hd',
          caption: 'false',
          licensedContent: true,
          contentRating: {},
          projection: 'rectangular',
        };
      }
      if (parts.has('status')) item.status = { uploadStatus: 'processed', privacyStatus: 'public', embeddable: true };
      return [item];
    });
    return {
      kind: 'youtube#videoListResponse',
      etag: etagOf(items),
      items,
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
    };
  }

  const endpoints: Record<string, (params: URLSearchParams) => object> = {
    channels: listChannels,
    playlistItems: listPlaylistItems,
    videos: listVideos,
  };

  function answer(res: ServerResponse, endpoint: string, params: URLSearchParams, status: number, body: object, cost: number): void {
    quotaUsed += cost;
    requests.push({ endpoint, params: Object.fromEntries(params), status, cost });
    if (res.destroyed) return;
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=UTF-8',
      'content-length': Buffer.byteLength(text),
      vary: 'Origin, X-Origin, Referer',
    });
    res.end(text);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const params = url.searchParams;
    const endpoint = url.pathname.startsWith(`${BASE_PATH}/`) ? url.pathname.slice(BASE_PATH.length + 1) : url.pathname;

    const injected = failures.shift();
    if (injected !== undefined) {
      const detail = defaultFailure(injected.status, injected.reason);
      if (injected.message !== undefined) detail.message = injected.message;
      answer(res, endpoint, params, injected.status, errorBody(injected.status, detail), 0);
      return;
    }
    const list = endpoints[endpoint];
    if (list === undefined || !Object.hasOwn(endpoints, endpoint)) {
      answer(res, endpoint, params, 404, errorBody(404, defaultFailure(404)), 0);
      return;
    }
    if (req.method !== 'GET') {
      answer(res, endpoint, params, 405, errorBody(405, { message: 'Method Not Allowed', domain: 'global', reason: 'httpMethodNotAllowed' }), 0);
      return;
    }
    const key = params.get('key');
    if (key === null || key === '' || (options.apiKey !== undefined && key !== options.apiKey)) {
      const detail = { message: 'Bad Request', domain: 'usageLimits', reason: 'keyInvalid' };
      answer(res, endpoint, params, 400, errorBody(400, detail), 0);
      return;
    }
    if (quotaExceeded || (options.dailyQuota !== undefined && quotaUsed + 1 > options.dailyQuota)) {
      answer(res, endpoint, params, 403, errorBody(403, defaultFailure(403, 'quotaExceeded')), 0);
      return;
    }
    try {
      answer(res, endpoint, params, 200, list(params), 1);
    } catch (error) {
      if (!(error instanceof PlatformFailure)) throw error;
      // Invalid requests are charged too.
      answer(res, endpoint, params, error.status, errorBody(error.status, error.detail), 1);
    }
  }

  const server = createServer((req, res) => {
    const delay = delays.shift();
    const run = (): void => {
      try {
        handle(req, res);
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fake video platform failed: ${String(error)}`);
      }
    };
    if (delay === undefined || delay <= 0) return run();
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, delay);
    timers.add(timer);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${BASE_PATH}`,
    requests,
    get quotaUsed() {
      return quotaUsed;
    },
    setChannel(channelId, videos, channelOptions = {}) {
      channels.set(channelId, {
        channelId,
        title: channelOptions.title ?? channels.get(channelId)?.title ?? `Channel ${channelId}`,
        uploadsPlaylistId: channelId.startsWith('UC') ? `UU${channelId.slice(2)}` : `UU${channelId}`,
        videos: videos.map((video) => ({ ...video })),
      });
    },
    setQuotaExceeded(exceeded) {
      quotaExceeded = exceeded;
    },
    failNext(status, reason, message) {
      failures.push({ status, ...(reason === undefined ? {} : { reason }), ...(message === undefined ? {} : { message }) });
    },
    delayNext(ms) {
      delays.push(ms);
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
