// `npm test`: one PostgreSQL cluster for the whole run (embedded unless DATABASE_URL is set), then
// ava with TAP output passed through, then the plain closing line CI reads: `N passed, N failed`.
// The service's logs go to a file per test file (test/helpers/test-log.ts), printed after the TAP
// only for the test files that failed.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startEmbeddedPostgres } from '../shared/db/embedded-postgres.ts';
import { createLogger } from '../shared/runtime/logger.ts';

const dir = await mkdtemp(join(tmpdir(), 'schedule-test-run-'));
let stopCluster = async () => {};
if (process.env.DATABASE_URL) {
  process.env.TEST_PG_ADMIN_URL = process.env.DATABASE_URL;
} else {
  const cluster = await startEmbeddedPostgres(join(dir, 'pg'), createLogger('warn'), { persistent: false });
  process.env.TEST_PG_ADMIN_URL = cluster.url;
  stopCluster = () => cluster.stop();
}

process.env.SERVICE_LOG_DIR = join(dir, 'logs');
/** Test files with a failure: the name before ` › ` (ava prints none when it runs one file). */
const failedFiles = new Set<string>();

let passed = 0;
let failed = 0;
let skipped = 0;
const ava = spawn(process.execPath, ['node_modules/ava/entrypoints/cli.mjs', '--tap', ...process.argv.slice(2)], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: process.env,
});
const lines = createInterface({ input: ava.stdout! });
lines.on('line', (line) => {
  process.stdout.write(`${line}\n`);
  if (/^not ok \d+/.test(line)) {
    if (/# TODO/.test(line)) skipped++;
    else {
      failed++;
      failedFiles.add(/^not ok \d+ - (.+?) › /.exec(line)?.[1] ?? '');
    }
  } else if (/^ok \d+/.test(line)) {
    if (/# (SKIP|TODO)/.test(line)) skipped++;
    else passed++;
  }
});
const code: number = await new Promise((resolve) => ava.on('close', (status) => resolve(status ?? 1)));
const logFiles = await readdir(process.env.SERVICE_LOG_DIR).catch(() => [] as string[]);
for (const file of logFiles) {
  const name = file.replace(/\.log$/, '');
  if (!failedFiles.has(name) && !(failedFiles.has('') && logFiles.length === 1)) continue;
  const text = await readFile(join(process.env.SERVICE_LOG_DIR, file), 'utf8');
  if (text) process.stdout.write(`\n# service log of ${name} (failed):\n${text.replace(/^/gm, '# ')}\n`);
}
await stopCluster().catch(() => undefined);
await rm(dir, { recursive: true, force: true });
// A run that executed nothing, or whose runner failed outside any test, fails through the exit code.
if (code !== 0 && failed === 0) process.stdout.write(`ava exited with code ${code} outside any test\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(code === 0 && passed > 0 ? 0 : 1);
