// Worker pools under overload: a full queue sheds load with 503 and Retry-After, never 500.
import test from 'ava';
import { startTestService, type TestService } from './helpers/service.ts';

let service: TestService;
test.before(async () => {
  service = await startTestService();
});
test.after.always(async () => {
  await service?.stop();
});

test('a burst of logins beyond the bcrypt queue gets 503 with Retry-After for the excess, and no 500', async (t) => {
  const statuses = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      fetch(`${service.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.77.${i >> 8}.${i & 255}` },
        body: JSON.stringify({ email: `nobody${i}@example.com`, password: 'wrong-password' }),
      }).then(async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { error?: string } })),
    ),
  );
  const counts = statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s.status]: (acc[s.status] ?? 0) + 1 }), {});
  t.is(counts[500], undefined, JSON.stringify(counts));
  t.true((counts[401] ?? 0) > 0, 'the queued ones are answered');
  t.true((counts[503] ?? 0) > 0, `the excess is shed: ${JSON.stringify(counts)}`);
  for (const shed of statuses.filter((s) => s.status === 503)) {
    t.is(shed.retryAfter, '2');
    t.truthy(shed.body.error);
  }
});
