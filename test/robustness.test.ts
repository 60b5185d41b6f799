// Bad input never gets a 500 (decisions.md: malformed JSON or a body of the wrong type gives 400, an
// unknown route 404, a body over the limit 413, never 500). Every route of the OpenAPI document is
// called with hostile path values, query values and bodies, with and without an administrator token.
import test from 'ava';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
let token: string;
test.before(async () => {
  service = await startTestService();
  token = await adminToken(service.url);
});
test.after.always(async () => {
  await service?.stop();
});

const HOSTILE_SEGMENTS = ['abc', '0', '-1', '99999999999999999999', '1.5', '%00', '..%2F..%2Fetc', encodeURIComponent("' OR 1=1 --"), encodeURIComponent('ㅋ'.repeat(300)), '%E0%A4%A', encodeURIComponent('🎤')];
const HOSTILE_QUERIES = ['', '?year=abc&month=13', '?limit=-5&offset=1e9', '?q=%00%FF', `?search=${encodeURIComponent('%_\\\'"; DROP TABLE schedules; --')}`, `?url=${encodeURIComponent('javascript:alert(1)')}`, '?limit=99999999999999999999'];
const HOSTILE_BODIES: Array<{ body: string; type: string }> = [
  { body: '{"a":', type: 'application/json' },
  { body: '[1,2,3]', type: 'application/json' },
  { body: '"text"', type: 'application/json' },
  { body: 'null', type: 'application/json' },
  { body: JSON.stringify({ title: 42, date: [], memberIds: 'x', query: { nested: true }, content: 1, username: null, password: {} }), type: 'application/json' },
  { body: '--x\r\nContent-Disposition: form-data; name="payload"\r\n\r\n{"broken"', type: 'multipart/form-data; boundary=x' },
  { body: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
  // NUL characters: PostgreSQL text cannot hold them, so they must be refused before any write.
  { body: JSON.stringify({ email: 'a\u0000@b.co', password: 'pass\u0000word', username: 'ad\u0000min', query: 'q\u0000', content: '단어\u0000\tNNG', title: 't\u0000' }), type: 'application/json' },
  {
    body: `--x\r\nContent-Disposition: form-data; name="payload"\r\n\r\n${JSON.stringify({ title: 'a\u0000b', date: '2026-01-01', schoolName: 's\u0000', venue: { name: 'v\u0000' }, name: 'n\u0000', nicknames: ['\u0000'] })}\r\n--x--\r\n`,
    type: 'multipart/form-data; boundary=x',
  },
];

interface Operation {
  method: string;
  path: string;
  /** Statuses the document lists for it (DELETE /auth/delete documents its specified 500). */
  documented: Set<string>;
}

async function operations(): Promise<Operation[]> {
  const document = (await call(service.url, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, documented: new Set(Object.keys(operation.responses)) })),
  );
}

test('no route answers 500 to hostile path values, query strings or bodies', async (t) => {
  const failures: string[] = [];
  let calls = 0;
  for (const { method, path, documented } of await operations()) {
    const paths = path.includes('{') ? HOSTILE_SEGMENTS.map((segment) => path.replace(/\{[^}]+\}/g, segment)) : [path];
    for (const target of paths) {
      for (const query of HOSTILE_QUERIES) {
        const bodies = method === 'GET' ? [undefined] : HOSTILE_BODIES;
        for (const body of bodies) {
          for (const auth of [undefined, token]) {
            calls++;
            const response = await fetch(service.url + target + query, {
              method,
              headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...(body ? { 'content-type': body.type } : {}), 'x-forwarded-for': `10.200.${calls >> 8 & 255}.${calls & 255}` },
              body: body?.body,
            });
            const text = await response.text();
            if (response.status >= 500 && response.status !== 503 && !documented.has(String(response.status))) failures.push(`${method} ${target}${query} ${body?.body.slice(0, 20) ?? ''} → ${response.status} ${text.slice(0, 80)}`);
            if (response.status >= 400 && response.status !== 405 && !(response.headers.get('content-type') ?? '').includes('json')) failures.push(`${method} ${target}${query} → ${response.status} without a JSON {error}`);
          }
        }
      }
    }
  }
  t.log(`${calls} calls`);
  t.deepEqual(failures.slice(0, 20), []);
});
