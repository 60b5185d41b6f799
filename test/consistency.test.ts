// The consistency checker, short run: two processes on one database, concurrent writers with pairs
// that write one schedule at the same moment, WebSocket and SSE subscribers resuming on either
// process, the edge process killed with SIGKILL and started again; then every promise of the live
// stream is judged from what the clients saw (test/helpers/consistency-analysis.ts). Two planted
// faults ride along in the same run, a resume one past the last seq and a dropped message: the
// checker must find both, or it would not find them in the service either.
// Replay a failing run with CHECKER_SEED=<the printed seed>.
import test from 'ava';
import { runConsistencyCheck } from './helpers/consistency-run.ts';
import { percentile } from './helpers/consistency-analysis.ts';

test('the live stream under concurrent writes, resumes on both processes and a SIGKILL: no anomaly; the planted faults are found', async (t) => {
  t.timeout(240_000);
  const seed = Number(process.env.CHECKER_SEED ?? Math.floor(Math.random() * 2 ** 31));
  t.log(`seed ${seed}`);
  const result = await runConsistencyCheck({ seed, durationMs: 25_000, writers: 3, subscribers: 6, pairEveryMs: 700, killAfterMs: 10_000, plantFaults: true });
  t.log(`${result.writes} writes, ${result.changes} changes, ${result.deliveries} deliveries; lag p99 same process ${percentile(result.lagSameMs, 99)} ms, other ${percentile(result.lagOtherMs, 99)} ms`);
  t.true(result.changes > 50, 'the run wrote enough to judge');
  t.deepEqual(result.anomalies, [], `seed ${seed}`);
  for (const [name, anomalies] of result.bySubscriber) {
    if (name.startsWith('fault-')) t.true(anomalies.length > 0, `the checker finds the planted fault of ${name}`);
    else t.deepEqual(anomalies, [], `${name}, seed ${seed}`);
  }
  t.true((result.bySubscriber.get('fault-off-by-one') ?? []).some((anomaly) => anomaly.startsWith('missed seq')), 'a resume one past the last seq misses a change');
  t.true((result.bySubscriber.get('fault-drop-one') ?? []).some((anomaly) => anomaly.startsWith('missed seq')), 'a dropped message is missed');
});
