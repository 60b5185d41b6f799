// Hostile queries against the embedded engine: the event-loop time the worst accepted query costs
// the edge's main thread, beside an ordinary query's. The engine runs over the search benchmark's
// 50,000 generated schedules, behind the real analysis pool (the query's words come from it, as in
// the service). Main-thread time is the event loop's active time while the query ran
// (performance.eventLoopUtilization), one query at a time with nothing else running. Printed, never
// asserted; test/hostile-input.test.ts asserts the bound on the real process.
//   node --import tsx test/bench/hostile-search.bench.ts
import { performance } from 'node:perf_hooks';
import { connectDatabase } from '../../shared/db/database.ts';
import { migrate } from '../../shared/db/migrate.ts';
import { createLogger } from '../../shared/runtime/logger.ts';
import { createSearchIndex } from '../../shared/search/create-search-index.ts';
import { createAnalysisPool } from '../../workers/analysis-pool.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { hostileQueries } from '../helpers/hostile-queries.ts';
import { generateDocument, generateQuery } from './search.bench.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 50_000);
const PAGE = { offset: 0, limit: 20 };
const ORDINARY = 300;

const logger = createLogger('warn');
const testDatabase = await createTestDatabase();
const CONNECTIONS = 4;
const database = connectDatabase(testDatabase.url, logger, CONNECTIONS);
const analysis = createAnalysisPool(testDatabase.url, logger, { threads: 1 });
try {
  await migrate(database.db, logger);
  const index = await createSearchIndex({ db: database.db, opensearchUrl: null, logger, analyze: analysis.tokens });
  await index.rebuild(Array.from({ length: DOCUMENTS }, (_, i) => generateDocument(i + 1)));
  await database.db.none('VACUUM ANALYZE search_documents');
  // Every pooled connection open before anything is measured: opening one costs the event loop
  // 10–20 ms (SCRAM, a new backend), once per connection; the first query sending more
  // statements at once than any before it would otherwise be charged for it.
  await Promise.all(Array.from({ length: CONNECTIONS }, () => database.db.any('SELECT pg_sleep(0.05)')));

  /** Wall time and main-thread (event loop active) time of one search. */
  const measure = async (text: string) => {
    const elu = performance.eventLoopUtilization();
    const started = performance.now();
    await index.search(text, PAGE);
    const wall = performance.now() - started;
    return { wall, main: performance.eventLoopUtilization(elu).active };
  };
  const ordinary = Array.from({ length: ORDINARY }, () => generateQuery().text);
  for (const text of ordinary.slice(0, 50)) await measure(text);
  const ordinaryMain: number[] = [];
  for (const text of ordinary) ordinaryMain.push((await measure(text)).main);
  ordinaryMain.sort((a, b) => a - b);

  const byShape = new Map<string, { main: number; wall: number; text: string }>();
  for (const { shape, text } of hostileQueries()) {
    const { wall, main } = await measure(text);
    const worst = byShape.get(shape);
    if (!worst || main > worst.main) byShape.set(shape, { main, wall, text });
  }
  const suggestWall: number[] = [];
  for (const { text } of hostileQueries()) {
    const started = performance.now();
    await analysis.suggest([...text].slice(0, 100).join(''), 10);
    suggestWall.push(performance.now() - started);
  }
  console.log(`${DOCUMENTS} documents; ordinary queries (${ORDINARY}): main thread p99 ${ordinaryMain[Math.ceil(ORDINARY * 0.99) - 1]!.toFixed(2)} ms, max ${ordinaryMain.at(-1)!.toFixed(2)} ms`);
  console.log('hostile shape                         main thread   wall');
  for (const [shape, worst] of [...byShape].sort((a, b) => b[1].main - a[1].main)) {
    console.log(`  ${shape.padEnd(36)} ${worst.main.toFixed(2).padStart(8)} ms ${worst.wall.toFixed(1).padStart(8)} ms`);
  }
  const worst = [...byShape.values()].reduce((a, b) => (b.main > a.main ? b : a));
  console.log(`worst hostile query: ${worst.main.toFixed(2)} ms of main thread (${(worst.main / ordinaryMain.at(-1)!).toFixed(1)}x the slowest ordinary query), ${worst.wall.toFixed(1)} ms wall`);
  console.log(`hostile suggestions (analysis pool, one thread): max ${Math.max(...suggestWall).toFixed(2)} ms wall`);
  await index.close();
} finally {
  await analysis.close();
  await database.close();
  await testDatabase.drop();
}
