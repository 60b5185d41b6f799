// `npm run admin -- <command>`: administrators for operators (docs/operations.md, "Administrators").
//   list                 every administrator: id, username, enabled or disabled
//   disable <username>   cannot log in; its tokens stop working at once
//   enable <username>    can log in again (tokens revoked by the disable stay revoked)
//   revoke <username>    its tokens stop working at once; it can log in again
//   remove <username>    deleted; its tokens stop working at once
//   lockouts             login lockouts in force: client addresses and slowed-down accounts
//   unlock <target>      clears the lockout of a client address, an administrator or a user e-mail
//   token list           API tokens: id, name, scope, expiry, last use, revoked
//   token create <name> <read|read-write> [days]   prints the new token once
//   token revoke <name>  refused by every server from the next request on
// Uses DATABASE_URL, else the embedded PostgreSQL of DATA_DIR (the running server's, or started for
// the command). ADMIN_USERNAME / ADMIN_PASSWORD are not applied here.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfigOrReport } from '../shared/runtime/config.ts';
import { runningEmbeddedDatabase } from '../shared/db/embedded-running.ts';
import { changeAdmin, listAdmins, removeAdmin } from '../shared/db/repositories/admin-users.ts';
import { clearLockout, listLockouts } from '../shared/accounts/lockouts.ts';
import { lockoutTarget } from '../edge/routes/admin-lockouts.ts';
import { apiTokens, createApiToken, revokeToken } from '../shared/accounts/api-tokens.ts';
import type { Db } from '../shared/db/database.ts';
import { createLogger } from '../shared/runtime/logger.ts';

const USAGE = 'usage: npm run admin -- list | disable <username> | enable <username> | revoke <username> | remove <username>\n'
  + '       npm run admin -- lockouts | unlock <address, username or e-mail>\n'
  + '       npm run admin -- token list | token create <name> <read|read-write> [days] | token revoke <name>\n';

/** Runs one command; returns the exit code and what to print. */
export async function runAdminCommand(db: Db, args: string[]): Promise<{ code: number; out: string }> {
  const [command, username, ...rest] = args;
  if (command === 'lockouts' && username === undefined) {
    const lockouts = await listLockouts(db, new Date());
    if (lockouts.length === 0) return { code: 0, out: 'no lockouts\n' };
    return { code: 0, out: lockouts.map((l) => `${l.kind}\t${l.scope}\t${l.target}\t${l.failures} failures\tuntil ${l.until}\n`).join('') };
  }
  if (command === 'token') return runTokenCommand(db, args.slice(1));
  if (command === 'unlock' && username && rest.length === 0) {
    // Written to the activity log as the operator's command line.
    const cleared = await clearLockout(db, lockoutTarget(username), 'cli');
    if (!cleared) return { code: 1, out: `no lockout recorded for ${username}\n` };
    return { code: 0, out: `${username}: ${cleared.kind} lockout cleared (${cleared.scopes.join(', ')})\n` };
  }
  if (command === 'list' && username === undefined) {
    const admins = await listAdmins(db);
    if (admins.length === 0) return { code: 0, out: 'no administrators\n' };
    return { code: 0, out: admins.map((a) => `${a.id}\t${a.username}\t${a.disabled ? 'disabled' : 'enabled'}\tupdated ${a.updated_at.toISOString()}\n`).join('') };
  }
  if (!username || rest.length > 0 || !['disable', 'enable', 'revoke', 'remove'].includes(command ?? '')) return { code: 2, out: USAGE };
  const done = command === 'remove' ? await removeAdmin(db, username) : await changeAdmin(db, username, command as 'disable' | 'enable' | 'revoke');
  if (!done) return { code: 1, out: `no administrator named ${username}\n` };
  const what = { disable: 'disabled; its tokens are revoked', enable: 'enabled', revoke: 'tokens revoked', remove: 'removed; its tokens are revoked' }[command as 'disable'];
  return { code: 0, out: `${username}: ${what}\n` };
}

/** `token …`: API tokens, as /api/admin/tokens; the activity log names the actor `cli`. */
async function runTokenCommand(db: Db, args: string[]): Promise<{ code: number; out: string }> {
  const [sub, name, scope, days, ...rest] = args;
  if (sub === 'list' && name === undefined) {
    const tokens = await apiTokens(db);
    if (tokens.length === 0) return { code: 0, out: 'no API tokens\n' };
    return { code: 0, out: tokens.map((t) => `${t.id}\t${t.name}\t${t.scope}\texpires ${t.expiresAt ?? 'never'}\tlast used ${t.lastUsedAt ?? 'never'}${t.revokedAt ? `\trevoked ${t.revokedAt}` : ''}\n`).join('') };
  }
  if (sub === 'create' && name && (scope === 'read' || scope === 'read-write') && rest.length === 0 && (days === undefined || /^[1-9]\d{0,3}$/.test(days))) {
    const expiresAt = days === undefined ? null : new Date(Date.now() + Number(days) * 24 * 3600 * 1000);
    const created = await createApiToken(db, { name, scope, expiresAt }, 'cli');
    if (!created) return { code: 1, out: `a live API token is named ${name}: revoke it first\n` };
    return { code: 0, out: `${created.token}\n` };
  }
  if (sub === 'revoke' && name && scope === undefined) {
    const revoked = await revokeToken(db, { name }, new Date(), 'cli');
    if (!revoked) return { code: 1, out: `no live API token named ${name}\n` };
    return { code: 0, out: `${name}: revoked\n` };
  }
  return { code: 2, out: USAGE };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length === 0 || args[0] === '--help' || args[0] === '-h') {
    process.stdout.write(USAGE);
    return args.length === 0 ? 2 : 0;
  }
  const config = loadConfigOrReport();
  if (!config) return 1;
  const server = config.databaseUrl ? null : await runningEmbeddedDatabase(join(config.dataDir, 'pg'));
  const logger = createLogger(process.env.LOG_LEVEL?.trim() ? config.logLevel : 'warn');
  const { startService } = await import('./service.ts');
  // No role and no ADMIN_*: the database (migrated) and nothing else runs.
  const running = await startService({ ...config, ...(server ? { databaseUrl: server.url } : {}), admin: null, roles: new Set() }, { logger });
  try {
    const { code, out } = await runAdminCommand(running.services.db, args);
    (code === 0 ? process.stdout : process.stderr).write(out);
    return code;
  } finally {
    await running.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`admin command failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
