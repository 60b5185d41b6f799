// ADMIN_USERNAME / ADMIN_PASSWORD at start: the administrator is created, or its password set. A
// changed password revokes the tokens issued before it (token_version); the same password changes
// nothing, so a restart logs nobody out. Other administrators, and whether this one is disabled,
// are the operator's to change (`npm run admin`, app/admin-cli.ts).
import type { Queryable } from '../db/database.ts';
import { findAdminByUsername, upsertAdmin } from '../db/repositories/admin-users.ts';
import type { Logger } from '../runtime/logger.ts';
import type { PasswordHasher } from '../../workers/password-hasher.ts';

export async function ensureAdmin(db: Queryable, passwords: PasswordHasher, admin: { username: string; password: string }, logger: Logger): Promise<void> {
  const password = admin.password.normalize('NFC');
  const existing = await findAdminByUsername(db, admin.username);
  if (existing && (await passwords.compare(password, existing.password_hash))) {
    logger.info({ adminId: existing.id }, 'administrator from ADMIN_USERNAME unchanged');
  } else {
    const id = await upsertAdmin(db, admin.username, await passwords.hash(password));
    logger.info({ adminId: id, passwordChanged: existing !== null }, existing ? 'administrator password changed from ADMIN_PASSWORD: its earlier tokens are revoked' : 'administrator created from ADMIN_USERNAME');
  }
  if (existing?.disabled) logger.warn({ adminId: existing.id }, `administrator ${admin.username} is disabled: \`npm run admin -- enable ${admin.username}\` lets it log in again`);
}
