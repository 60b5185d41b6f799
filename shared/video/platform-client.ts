// Client of the video platform's Data API v3 (channels, playlistItems, videos).
// Every list call costs one quota unit; callers page through uploads and batch video ids.

import { parseIsoDuration } from './video-rules.ts';
import { isVideoId } from './video-url.ts';

export const DEFAULT_VIDEO_API_URL = 'https://www.googleapis.com/youtube/v3';
const DEFAULT_FETCH_TIMEOUT_MS = 10_000;
const MAX_IDS_PER_CALL = 50;

/** Non-2xx answer, unreadable body or network failure of the platform. Never carries the API key. */
export class VideoPlatformError extends Error {
  override name = 'VideoPlatformError';
  /** HTTP status; 0 when no answer arrived (timeout, connection refused). */
  readonly status: number;
  /** The platform's first `errors[].reason`, when it gave one. */
  readonly reason: string | null;

  constructor(message: string, status: number, reason: string | null = null) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

/** The daily quota of the API key is used up; calls fail until it resets at midnight Pacific time. */
export class QuotaExceededError extends VideoPlatformError {
  override name = 'QuotaExceededError';

  constructor(reason: string, status = 403) {
    super('영상 플랫폼의 일일 API 할당량을 모두 사용했습니다.', status, reason);
  }
}

export interface VideoPlatformClientOptions {
  /** Defaults to DEFAULT_VIDEO_API_URL; the service passes config VIDEO_API_URL. */
  baseUrl?: string;
  apiKey: string;
  fetchTimeoutMs?: number;
}

export interface PlaylistVideo {
  videoId: string;
  title: string;
  /** When the video was published (not when it joined the playlist). */
  publishedAt: string;
  channelId: string;
  channelTitle: string;
  thumbnailUrl: string | null;
}

export interface PlaylistPage {
  items: PlaylistVideo[];
  nextPageToken?: string;
}

export type LiveBroadcastContent = 'none' | 'live' | 'upcoming';

export interface VideoDetails {
  videoId: string;
  title: string;
  description: string;
  channelId: string;
  channelTitle: string;
  publishedAt: string;
  /** null when the platform gave no readable duration. Live and upcoming broadcasts report 0. */
  durationSeconds: number | null;
  thumbnailUrl: string | null;
  liveBroadcastContent: LiveBroadcastContent;
}

// Wire shapes, only the fields read here; everything is optional because nothing is trusted.
interface WireThumbnail {
  url?: string;
}
type WireThumbnails = Partial<Record<'default' | 'medium' | 'high' | 'standard' | 'maxres', WireThumbnail>>;

interface WireListResponse<Item> {
  items?: Item[];
  nextPageToken?: string;
}

interface WireChannel {
  id?: string;
  contentDetails?: { relatedPlaylists?: { uploads?: string } };
}

interface WirePlaylistItem {
  snippet?: {
    publishedAt?: string;
    channelId?: string;
    channelTitle?: string;
    title?: string;
    thumbnails?: WireThumbnails;
    resourceId?: { kind?: string; videoId?: string };
    videoOwnerChannelId?: string;
    videoOwnerChannelTitle?: string;
  };
  contentDetails?: { videoId?: string; videoPublishedAt?: string };
}

interface WireVideo {
  id?: string;
  snippet?: {
    publishedAt?: string;
    channelId?: string;
    channelTitle?: string;
    title?: string;
    description?: string;
    thumbnails?: WireThumbnails;
    liveBroadcastContent?: string;
  };
  contentDetails?: { duration?: string };
}

interface WireErrorBody {
  error?: { code?: number; message?: string; errors?: { reason?: string; domain?: string; message?: string }[] };
}

// Reasons the platform gives when the project's daily quota is spent.
const QUOTA_REASONS = new Set(['quotaExceeded', 'dailyLimitExceeded']);

const THUMBNAIL_PREFERENCE = ['maxres', 'standard', 'high', 'medium', 'default'] as const;

function bestThumbnail(thumbnails: WireThumbnails | undefined): string | null {
  for (const size of THUMBNAIL_PREFERENCE) {
    const url = thumbnails?.[size]?.url;
    if (typeof url === 'string' && url !== '') return url;
  }
  return null;
}

/** `UC…` channel ids own the uploads playlist `UU…`; null for ids that do not follow it. */
export function conventionalUploadsPlaylistId(channelId: string): string | null {
  return /^UC[A-Za-z0-9_-]{22}$/.test(channelId) ? `UU${channelId.slice(2)}` : null;
}

function stripMarkup(text: string): string {
  return text.replace(/<[^>]*>/g, '').trim();
}

export class VideoPlatformClient {
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #fetchTimeoutMs: number;

  constructor(options: VideoPlatformClientOptions) {
    this.#baseUrl = (options.baseUrl ?? DEFAULT_VIDEO_API_URL).replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  }

  /**
   * Id of the channel's uploads playlist from channels.list (1 unit). With `lookup: false`
   * the `UC…` → `UU…` convention answers without a call when the id follows it. A channel
   * the platform does not know gives VideoPlatformError 404.
   */
  async uploadsPlaylistId(channelId: string, options: { lookup?: boolean } = {}): Promise<string> {
    const conventional = conventionalUploadsPlaylistId(channelId);
    if (options.lookup === false && conventional !== null) return conventional;
    const body = await this.#get<WireListResponse<WireChannel>>('channels', {
      part: 'contentDetails',
      id: channelId,
    });
    const channel = body.items?.find((item) => item.id === channelId) ?? body.items?.[0];
    if (channel === undefined) {
      throw new VideoPlatformError(`영상 플랫폼에서 채널을 찾을 수 없습니다: ${channelId}`, 404, 'channelNotFound');
    }
    const uploads = channel.contentDetails?.relatedPlaylists?.uploads;
    if (typeof uploads === 'string' && uploads !== '') return uploads;
    if (conventional !== null) return conventional;
    throw new VideoPlatformError(`채널의 업로드 재생목록을 찾을 수 없습니다: ${channelId}`, 404, 'playlistNotFound');
  }

  /**
   * One page of a playlist, newest first for uploads playlists (1 unit). Private and deleted
   * entries, which have no publication time, are left out.
   */
  async listPlaylistItems(playlistId: string, pageToken?: string, maxResults = 50): Promise<PlaylistPage> {
    const params: Record<string, string> = {
      part: 'snippet,contentDetails',
      playlistId,
      maxResults: String(Math.min(Math.max(Math.trunc(maxResults), 1), 50)),
    };
    if (pageToken !== undefined && pageToken !== '') params.pageToken = pageToken;
    const body = await this.#get<WireListResponse<WirePlaylistItem>>('playlistItems', params);

    const items: PlaylistVideo[] = [];
    for (const item of body.items ?? []) {
      const videoId = item.contentDetails?.videoId ?? item.snippet?.resourceId?.videoId;
      const publishedAt = item.contentDetails?.videoPublishedAt;
      if (typeof videoId !== 'string' || typeof publishedAt !== 'string') continue;
      const snippet = item.snippet ?? {};
      items.push({
        videoId,
        title: snippet.title ?? '',
        publishedAt,
        channelId: snippet.videoOwnerChannelId ?? snippet.channelId ?? '',
        channelTitle: snippet.videoOwnerChannelTitle ?? snippet.channelTitle ?? '',
        thumbnailUrl: bestThumbnail(snippet.thumbnails),
      });
    }
    const page: PlaylistPage = { items };
    if (typeof body.nextPageToken === 'string' && body.nextPageToken !== '') page.nextPageToken = body.nextPageToken;
    return page;
  }

  /**
   * Details of the given videos, in the order asked, one call (1 unit) per 50 ids. Ids the
   * platform does not return (private, deleted, unknown) are left out; duplicates are asked once.
   */
  async getVideos(ids: readonly string[]): Promise<VideoDetails[]> {
    const unique = [...new Set(ids)];
    const invalid = unique.find((id) => !isVideoId(id));
    if (invalid !== undefined) throw new RangeError(`not a video id: ${JSON.stringify(invalid)}`);

    const found = new Map<string, VideoDetails>();
    for (let start = 0; start < unique.length; start += MAX_IDS_PER_CALL) {
      const batch = unique.slice(start, start + MAX_IDS_PER_CALL);
      const body = await this.#get<WireListResponse<WireVideo>>('videos', {
        part: 'snippet,contentDetails',
        id: batch.join(','),
      });
      for (const video of body.items ?? []) {
        if (typeof video.id !== 'string') continue;
        const snippet = video.snippet ?? {};
        const live = snippet.liveBroadcastContent;
        found.set(video.id, {
          videoId: video.id,
          title: snippet.title ?? '',
          description: snippet.description ?? '',
          channelId: snippet.channelId ?? '',
          channelTitle: snippet.channelTitle ?? '',
          publishedAt: snippet.publishedAt ?? '',
          durationSeconds:
            typeof video.contentDetails?.duration === 'string' ? parseIsoDuration(video.contentDetails.duration) : null,
          thumbnailUrl: bestThumbnail(snippet.thumbnails),
          liveBroadcastContent: live === 'live' || live === 'upcoming' ? live : 'none',
        });
      }
    }
    return unique.flatMap((id) => found.get(id) ?? []);
  }

  async #get<Body>(resource: string, params: Record<string, string>): Promise<Body> {
    const url = new URL(`${this.#baseUrl}/${resource}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    url.searchParams.set('key', this.#apiKey);

    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.#fetchTimeoutMs),
      });
    } catch (error) {
      // The cause is left out on purpose: some network errors quote the request URL, and with it the key.
      throw this.#networkError(error);
    }

    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.#networkError(error);
    }

    if (!response.ok) throw this.#errorFromBody(response.status, text);
    try {
      return JSON.parse(text) as Body;
    } catch {
      throw new VideoPlatformError('영상 플랫폼의 응답을 해석하지 못했습니다.', response.status);
    }
  }

  #networkError(error: unknown): VideoPlatformError {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') {
      return new VideoPlatformError(`영상 플랫폼이 ${this.#fetchTimeoutMs}ms 안에 응답하지 않았습니다.`, 0, 'timeout');
    }
    return new VideoPlatformError('영상 플랫폼에 연결하지 못했습니다.', 0, 'network');
  }

  #errorFromBody(status: number, text: string): VideoPlatformError {
    let body: WireErrorBody = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object') body = parsed as WireErrorBody;
    } catch {
      // A proxy's HTML page, say: the status alone has to do.
    }
    const reasons = (body.error?.errors ?? []).map((entry) => entry.reason).filter((r): r is string => !!r);
    const quotaReason = reasons.find((reason) => QUOTA_REASONS.has(reason));
    if (quotaReason !== undefined) return new QuotaExceededError(quotaReason, status);

    const platformMessage = this.#redact(stripMarkup(String(body.error?.message ?? ''))).slice(0, 300);
    const message = platformMessage
      ? `영상 플랫폼 요청이 실패했습니다 (HTTP ${status}): ${platformMessage}`
      : `영상 플랫폼 요청이 실패했습니다 (HTTP ${status}).`;
    return new VideoPlatformError(message, status, reasons[0] ?? null);
  }

  #redact(text: string): string {
    return this.#apiKey === '' ? text : text.split(this.#apiKey).join('***');
  }
}
