// Client of the map platform's keyword search (Kakao Local: GET /v2/local/search/keyword.json,
// `Authorization: KakaoAK <key>`). Same timeout as the video platform client, and a circuit
// breaker: after 5 failures in a row calls are refused for a minute instead of each waiting.
import { CircuitBreaker, CircuitOpenError } from '../runtime/circuit-breaker.ts';

const DEFAULT_FETCH_TIMEOUT_MS = 10_000;

export interface Place {
  name: string;
  address: string;
  roadAddress: string;
  lat: number | null;
  lng: number | null;
  map_id: string;
}

/** The platform did not answer, or answered with an error or an unreadable body. Never carries the key. */
export class MapPlatformError extends Error {
  override name = 'MapPlatformError';
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

export interface MapClientOptions {
  baseUrl: string;
  apiKey: string;
  fetchTimeoutMs?: number;
  breaker?: CircuitBreaker;
}

interface WireDocument {
  id?: unknown;
  place_name?: unknown;
  address_name?: unknown;
  road_address_name?: unknown;
  x?: unknown;
  y?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const coordinate = (value: unknown, limit: number) => {
  const n = typeof value === 'string' || typeof value === 'number' ? Number(value) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= limit && value !== '' ? n : null;
};

export class MapClient {
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #fetchTimeoutMs: number;
  readonly breaker: CircuitBreaker;

  constructor(options: MapClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
    // A refused query (4xx other than 401/403/429) is the caller's, not an outage.
    this.breaker = options.breaker ?? new CircuitBreaker({
      failureThreshold: 5,
      resetAfterMs: 60_000,
      isFailure: (error) => !(error instanceof MapPlatformError && error.status >= 400 && error.status < 500 && ![401, 403, 429].includes(error.status)),
    });
  }

  /** Places matching `query`, in the platform's order (at most 15, its default page). */
  search(query: string): Promise<Place[]> {
    return this.breaker.run(() => this.#search(query));
  }

  async #search(query: string): Promise<Place[]> {
    const url = new URL(`${this.#baseUrl}/v2/local/search/keyword.json`);
    url.searchParams.set('query', query);
    let response: Response;
    let body: string;
    try {
      response = await fetch(url, { headers: { authorization: `KakaoAK ${this.#apiKey}`, accept: 'application/json' }, signal: AbortSignal.timeout(this.#fetchTimeoutMs) });
      body = await response.text();
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError') throw new MapPlatformError(`지도 플랫폼이 ${this.#fetchTimeoutMs}ms 안에 응답하지 않았습니다.`, 0);
      throw new MapPlatformError('지도 플랫폼에 연결하지 못했습니다.', 0);
    }
    if (!response.ok) throw new MapPlatformError(`지도 플랫폼 요청이 실패했습니다 (HTTP ${response.status}).`, response.status);
    let documents: WireDocument[];
    try {
      const parsed = JSON.parse(body) as { documents?: unknown };
      if (!Array.isArray(parsed.documents)) throw new Error('no documents');
      documents = parsed.documents as WireDocument[];
    } catch {
      throw new MapPlatformError('지도 플랫폼의 응답을 해석하지 못했습니다.', response.status);
    }
    return documents
      .filter((doc) => doc !== null && typeof doc === 'object' && text(doc.place_name) !== '')
      .map((doc) => ({
        name: text(doc.place_name),
        address: text(doc.address_name),
        roadAddress: text(doc.road_address_name),
        lat: coordinate(doc.y, 90),
        lng: coordinate(doc.x, 180),
        map_id: text(doc.id) || String(doc.id ?? ''),
      }));
  }
}

export { CircuitOpenError };
