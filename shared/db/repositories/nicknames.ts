// Nickname of a new account (auth-service.md 2.3): a random adjective, a space, a random noun;
// the fallback is the word for "user" followed by a number from 0 to 9999.
import { randomInt } from 'node:crypto';
import type { Queryable } from '../database.ts';
import type { Logger } from '../../runtime/logger.ts';

export const fallbackNickname = () => `사용자${randomInt(0, 10_000)}`;

export async function randomNickname(db: Queryable, logger: Logger): Promise<string> {
  try {
    const row = await db.one<{ adjective: string | null; noun: string | null }>(
      `SELECT (SELECT word FROM nickname_words WHERE type = 'adjective' ORDER BY random() LIMIT 1) AS adjective,
              (SELECT word FROM nickname_words WHERE type = 'noun' ORDER BY random() LIMIT 1) AS noun`,
    );
    if (row.adjective && row.noun) return `${row.adjective} ${row.noun}`;
  } catch (error) {
    logger.warn({ err: error }, 'nickname lookup failed; using the fallback');
  }
  return fallbackNickname();
}
