// The consistency checker's long run (test/consistency.test.ts runs a short one in `npm test`): two
// processes on one database, concurrent writers with pairs of writes of one schedule at its row
// lock, subscribers of both transports resuming on either process, the edge process killed with
// SIGKILL and started again. Prints the changes, deliveries, anomalies and the delivery lag p99
// on the process that took the write and on the other one.
//   node --import tsx test/bench/consistency.bench.ts          (CHECKER_SEED, CHECKER_SECONDS to vary)
import { percentile } from '../helpers/consistency-analysis.ts';
import { runConsistencyCheck } from '../helpers/consistency-run.ts';

const seed = Number(process.env.CHECKER_SEED ?? Math.floor(Math.random() * 2 ** 31));
const seconds = Number(process.env.CHECKER_SECONDS ?? 120);
const result = await runConsistencyCheck({ seed, durationMs: seconds * 1000, writers: 4, subscribers: 20, pairEveryMs: 400, killAfterMs: (seconds * 1000) / 2 });
const faults = [...result.bySubscriber.values()].reduce((sum, list) => sum + list.length, 0);
console.log(`seed ${seed}, ${seconds} s: ${result.writes} writes, ${result.changes} changes, ${result.deliveries} deliveries`);
console.log(`anomalies: ${result.anomalies.length + faults}`);
for (const anomaly of [...result.anomalies, ...[...result.bySubscriber].flatMap(([name, list]) => list.map((a) => `${name}: ${a}`))].slice(0, 20)) console.log(`  ${anomaly}`);
console.log(`delivery lag p99: same process ${percentile(result.lagSameMs, 99)} ms (${result.lagSameMs.length}), other process ${percentile(result.lagOtherMs, 99)} ms (${result.lagOtherMs.length})`);
process.exit(0);
