// Stored query strings after the normal form changed: the migration step rewrites saved and
// blocked queries written under the older, looser form into the current one, merging rows that now
// mean the same query, and derives each old save's network from its stored client key.
import test from 'ava';
import { connectDatabase } from '../shared/db/database.ts';
import { migrate } from '../shared/db/migrate.ts';
import { popularSearches } from '../shared/db/repositories/saved-searches.ts';
import { ConfigError, loadConfig } from '../shared/runtime/config.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { createTestDatabase } from './helpers/database.ts';

const logger = createLogger('silent');
const MIGRATION = '027_normalized_queries.sql';

test('the normal-form migration merges look-alike saved queries, keeps blocks on every variant and counts old saves by network', async (t) => {
  const testDatabase = await createTestDatabase();
  const { db, close } = connectDatabase(testDatabase.url, logger, 2);
  t.teardown(async () => {
    await close();
    await testDatabase.drop();
  });
  await migrate(db, logger);
  const now = new Date();
  const day = now.toISOString().slice(0, 10);
  // Rows as the older form stored them: invisible characters kept, full-width Latin as typed, no network.
  const rows: [string, string][] = [
    ['루미네 콘서트', '198.51.100.1'],
    ['루미네\u200C 콘서트', '198.51.100.2'], // same /24 as the first: one network
    ['루미\u00AD네 콘서트', '203.0.113.5'],
    ['루미네 콘서트', '203.0.113.5'], // the same address saved the plain form that day: a repeat after rewriting
    ['루미네\u3164 콘서트', '2001:db8:1:2::/64'],
    ['ｌｕｍｉｎｅ ｌｉｖｅ', '192.0.2.1'],
    ['\u202E악성 루머\u202C', '192.0.2.2'],
    ['\u200B', '192.0.2.3'],
  ];
  for (const [query, client] of rows) {
    await db.none('INSERT INTO saved_searches (query, created_at, client, saved_on) VALUES ($1, $2, $3, $4::date)', [query, now, client, day]);
  }
  await db.none("INSERT INTO blocked_searches (query) VALUES ('악성\u00AD 루머')");
  await db.none('DELETE FROM schema_migrations WHERE version = $1', [MIGRATION]);
  t.deepEqual(await migrate(db, logger), [MIGRATION]);

  const stored = await db.any<{ query: string; client: string; network: string }>('SELECT query, client, network FROM saved_searches ORDER BY id');
  t.deepEqual(stored, [
    { query: '루미네 콘서트', client: '198.51.100.1', network: '198.51.100.0/24' },
    { query: '루미네 콘서트', client: '198.51.100.2', network: '198.51.100.0/24' },
    { query: '루미네 콘서트', client: '203.0.113.5', network: '203.0.113.0/24' },
    { query: '루미네 콘서트', client: '2001:db8:1:2::/64', network: '2001:db8:1::/48' },
    { query: 'lumine live', client: '192.0.2.1', network: '192.0.2.0/24' },
  ]);
  t.deepEqual(await db.map('SELECT query FROM blocked_searches', [], (row: { query: string }) => row.query), ['악성 루머']);
  t.deepEqual(await popularSearches(db, now, 7, 3, 10), [{ query: '루미네 콘서트', count: 4 }], 'three networks: popular, four saves');
  t.deepEqual(await migrate(db, logger), [], 'applied once');
});

test('the skeleton migration merges saved queries spelled with look-alike letters and blocks every spelling of a blocked one', async (t) => {
  const testDatabase = await createTestDatabase();
  const { db, close } = connectDatabase(testDatabase.url, logger, 2);
  t.teardown(async () => {
    await close();
    await testDatabase.drop();
  });
  await migrate(db, logger);
  const now = new Date();
  const day = now.toISOString().slice(0, 10);
  // Rows as the normal form alone stored them: look-alike letters and format characters kept.
  const rows: [string, string][] = [
    ['casino live', '198.51.100.1'],
    ['\u0441asino live', '203.0.113.1'], // Cyrillic с
    ['cas\u03B9no live', '192.0.2.1'], // Greek ι
    ['cas\u03B9no live', '198.51.100.1'], // the first address, the same day: a repeat once rewritten
    ['루미네\uFFF9 콘서트', '198.51.100.7'],
    ['fr\u0435\u0435 coins', '192.0.2.9'], // Cyrillic е: its blocked Latin spelling removes it
  ];
  for (const [query, client] of rows) {
    await db.none('INSERT INTO saved_searches (query, created_at, client, saved_on, network) VALUES ($1, $2, $3, $4::date, $5)', [query, now, client, day, client]);
  }
  await db.none("INSERT INTO blocked_searches (query) VALUES ('free coins'), ('\u0455pam site')");
  const SKELETONS = '033_query_skeletons.sql';
  await db.none('DELETE FROM schema_migrations WHERE version = $1', [SKELETONS]);
  t.deepEqual(await migrate(db, logger), [SKELETONS]);
  const stored = await db.any<{ query: string; client: string }>('SELECT query, client FROM saved_searches ORDER BY id');
  t.deepEqual(stored, [
    { query: 'casino live', client: '198.51.100.1' },
    { query: 'casino live', client: '203.0.113.1' },
    { query: 'casino live', client: '192.0.2.1' },
    { query: '루미네 콘서트', client: '198.51.100.7' },
  ]);
  t.deepEqual(await db.map('SELECT query FROM blocked_searches ORDER BY query', [], (row: { query: string }) => row.query), ['free coins', 'spam site']);
  t.deepEqual(await popularSearches(db, now, 7, 3, 10), [{ query: 'casino live', count: 3 }], 'three spellings from three networks: one popular query');
});

test('SUGGEST_MIN_NETWORKS sets the threshold; the older SUGGEST_MIN_ADDRESSES is read only when it is unset', (t) => {
  const base = { DATA_DIR: '/tmp/schedule-config-check' };
  t.is(loadConfig(base).savedSearches.minNetworks, 3);
  t.is(loadConfig({ ...base, SUGGEST_MIN_NETWORKS: '5' }).savedSearches.minNetworks, 5);
  t.is(loadConfig({ ...base, SUGGEST_MIN_ADDRESSES: '4' }).savedSearches.minNetworks, 4);
  t.is(loadConfig({ ...base, SUGGEST_MIN_ADDRESSES: '4', SUGGEST_MIN_NETWORKS: '6' }).savedSearches.minNetworks, 6);
  t.throws(() => loadConfig({ ...base, SUGGEST_MIN_NETWORKS: '0' }), { instanceOf: ConfigError, message: /SUGGEST_MIN_NETWORKS/ });
});
