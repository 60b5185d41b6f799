// Expired abuse counters are deleted (workers/actors/counter-pruning.ts): addresses and accounts not
// seen within their window leave no row behind, and counters still inside their window keep
// counting, so a lockout or a registration limit in force is never lifted by the pruning.
import test from 'ava';
import { connectDatabase } from '../shared/db/database.ts';
import { migrate } from '../shared/db/migrate.ts';
import { LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS, lockRemainingMs, openAttempt, recordFailure, type LoginScope } from '../shared/db/repositories/login-attempts.ts';
import { userByEmail } from '../shared/db/repositories/users.ts';
import { REGISTRATION_WINDOW_MS, takeRegistration } from '../shared/db/repositories/registrations.ts';
import { saveSearch } from '../shared/db/repositories/saved-searches.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { pruneExpiredCounters, startCounterPruning } from '../workers/actors/counter-pruning.ts';
import { createTestDatabase } from './helpers/database.ts';

const logger = createLogger('silent');

async function database(t: import('ava').ExecutionContext) {
  const testDatabase = await createTestDatabase();
  const { db, close } = connectDatabase(testDatabase.url, logger, 2);
  await migrate(db, logger);
  t.teardown(async () => {
    await close();
    await testDatabase.drop();
  });
  return db;
}

/** A login's first round trip for an unknown account: takes the address's slot; the milliseconds it stays locked, else 0. */
const takeFailureSlot = async (db: Awaited<ReturnType<typeof database>>, scope: LoginScope, ip: string, now: Date) =>
  (await openAttempt(db, scope, ip, now, userByEmail('nobody@example.com'))).lockedMs;

const rows = async (db: Awaited<ReturnType<typeof database>>) =>
  db.one<{ attempts: number; failures: number; registrations: number }>(
    `SELECT (SELECT count(*) FROM login_attempts)::int AS attempts, (SELECT count(*) FROM login_account_failures)::int AS failures,
            (SELECT count(*) FROM registration_windows)::int AS registrations`,
  );

test('expired login failures and registration windows are deleted; counters inside their window stay and keep counting', async (t) => {
  const db = await database(t);
  const now = new Date('2026-11-22T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  // 50 addresses seen once, long ago (a client rotating addresses), and one locked out just now.
  for (let i = 0; i < 50; i++) {
    await takeFailureSlot(db, 'user', `198.51.100.${i}`, ago(LOCKOUT_WINDOW_MS + 60_000));
    await takeRegistration(db, `203.0.113.${i}`, ago(REGISTRATION_WINDOW_MS + 60_000), 20);
    await recordFailure(db, 'user', `198.51.100.${i}`, 1000 + i, ago(LOCKOUT_WINDOW_MS + 60_000));
  }
  for (let i = 0; i < LOCKOUT_FAILURES; i++) await takeFailureSlot(db, 'user', '192.0.2.7', ago(60_000));
  await takeRegistration(db, '192.0.2.7', ago(60_000), 20);
  await recordFailure(db, 'user', '192.0.2.7', 7, ago(60_000));
  t.deepEqual(await rows(db), { attempts: 51, failures: 51, registrations: 51 });

  t.deepEqual(await pruneExpiredCounters(db, now), { loginAttempts: 50, accountFailures: 50, registrationWindows: 50, savedSearches: 0 });
  t.deepEqual(await rows(db), { attempts: 1, failures: 1, registrations: 1 });
  // The lockout in force is untouched: the address still waits out the rest of its window.
  t.true((await lockRemainingMs(db, 'user', '192.0.2.7', now)) > LOCKOUT_WINDOW_MS - 120_000);
  t.true((await takeFailureSlot(db, 'user', '192.0.2.7', now)) > 0);
  t.deepEqual(await pruneExpiredCounters(db, now), { loginAttempts: 0, accountFailures: 0, registrationWindows: 0, savedSearches: 0 });
});

test('the actors role prunes at start: rows expired by the clock it is given are gone once it has run', async (t) => {
  const db = await database(t);
  const now = new Date('2026-11-22T12:00:00Z');
  await takeFailureSlot(db, 'admin', '198.51.100.1', new Date(now.getTime() - LOCKOUT_WINDOW_MS - 1));
  await takeRegistration(db, '203.0.113.1', new Date(now.getTime() - REGISTRATION_WINDOW_MS - 1), 20);
  const pruning = startCounterPruning(db, logger, () => now);
  await pruning.stop(); // waits for the round it started
  t.deepEqual(await rows(db), { attempts: 0, failures: 0, registrations: 0 });
});

test('saved searches older than the retention window are deleted; those inside it stay', async (t) => {
  const db = await database(t);
  const now = new Date('2026-11-22T12:00:00Z');
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
  for (let i = 0; i < 20; i++) await saveSearch(db, `오래된 검색 ${i}`, `198.51.100.${i}`, '198.51.100.0/24', daysAgo(31), 50);
  await saveSearch(db, '최근 검색', '198.51.100.1', '198.51.100.0/24', daysAgo(29), 50);
  t.is((await pruneExpiredCounters(db, now, 30)).savedSearches, 20);
  t.deepEqual(await db.map('SELECT query FROM saved_searches', [], (row: { query: string }) => row.query), ['최근 검색']);
  // A shorter window set by the operator is honoured.
  t.is((await pruneExpiredCounters(db, now, 7)).savedSearches, 1);
});
