// Imported first by the process entry: on a Node whose uWebSockets.js build is missing, the start
// stops here, before the configuration, the database or any listener (shared/runtime/node-support.ts).
import { edgeRuntimeProblem } from '../shared/runtime/node-support.ts';

const problem = edgeRuntimeProblem();
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
