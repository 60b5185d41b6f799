// A local stand-in for the map platform's keyword search (Kakao Local
// `GET /v2/local/search/keyword.json`): real HTTP on 127.0.0.1, the `KakaoAK <key>` check, the
// `{documents, meta}` answer with string coordinates, and the platform's error bodies.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePlace {
  id: string;
  place_name: string;
  address_name: string;
  road_address_name: string;
  /** Longitude, as a string (the platform's format). */
  x: string;
  /** Latitude, as a string. */
  y: string;
}

export interface FakeMapPlatform {
  url: string;
  places: FakePlace[];
  requests: Array<{ path: string; query: string | null; authorization: string | undefined; status: number }>;
  /** The next request (each call queues one) answers with this status. */
  failNext(status: number): void;
  close(): Promise<void>;
}

export async function startFakeMapPlatform(apiKey: string): Promise<FakeMapPlatform> {
  const failures: number[] = [];
  const fake: FakeMapPlatform = {
    url: '',
    places: [],
    requests: [],
    failNext: (status) => void failures.push(status),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = url.searchParams.get('query');
    const answer = (status: number, body: unknown) => {
      fake.requests.push({ path: url.pathname, query, authorization: req.headers.authorization, status });
      res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' }).end(JSON.stringify(body));
    };
    if (url.pathname !== '/v2/local/search/keyword.json') return answer(404, { errorType: 'NotFound', message: 'not found' });
    if (req.headers.authorization !== `KakaoAK ${apiKey}`) return answer(401, { errorType: 'AccessDeniedError', message: 'wrong appKey format' });
    const failure = failures.shift();
    if (failure !== undefined) return answer(failure, { errorType: 'InternalError', message: 'failure' });
    if (!query) return answer(400, { errorType: 'MissingParameter', message: 'query parameter required' });
    const documents = fake.places.filter((place) => place.place_name.includes(query) || place.address_name.includes(query));
    answer(200, {
      documents: documents.map((place) => ({ ...place, category_name: '문화,예술 > 공연장', phone: '', place_url: `http://place.map.kakao.com/${place.id}`, distance: '' })),
      meta: { total_count: documents.length, pageable_count: documents.length, is_end: true, same_name: { keyword: query, region: [], selected_region: '' } },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
