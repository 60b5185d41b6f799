// Worker pools under overload: fair admission to the bcrypt pool answers a burst from many
// addresses in full, refuses one address's excess with 429 and Retry-After, and never gives 500.
// (The 503 of a truly full machine: test/fair-admission.test.ts.)
import test from 'ava';
import { startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
test.before(async () => {
  service = await startTestService();
});
test.after.always(async () => {
  await service?.stop();
});

const login = (i: number, address: string) =>
  fetch(`${service.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email: `nobody${i}@example.com`, password: 'wrong-password' }),
  }).then(async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { error?: string } }));

const countOf = (statuses: Array<{ status: number }>) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s.status]: (acc[s.status] ?? 0) + 1 }), {});

test('a burst of logins from 100 addresses, past the pool\'s threads, is queued and answered in full: 401 each, no 503, no 500', async (t) => {
  const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => login(i, `10.77.${i >> 8}.${i & 255}`)));
  t.deepEqual(countOf(statuses), { 401: 100 });
});

test('one address sending a burst gets 429 with Retry-After for what exceeds its share, never 503 or 500', async (t) => {
  const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => login(i, '10.78.0.1')));
  const counts = countOf(statuses);
  t.deepEqual(Object.keys(counts).sort(), ['401', '429'], JSON.stringify(counts));
  for (const refused of statuses.filter((s) => s.status === 429)) {
    t.regex(refused.retryAfter ?? '', /^\d+$/);
    t.truthy(refused.body.error);
  }
});
