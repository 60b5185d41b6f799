// Activity log (api-service.md section 6): who did what to which record, with a summary naming it.
import type { Writer } from '../database.ts';

export interface ActivityEntry {
  actor: string;
  action: 'create' | 'update' | 'delete';
  category: string;
  targetType: string;
  targetId: string | number;
  summary: string;
}

export async function logActivity(db: Writer, entry: ActivityEntry): Promise<void> {
  await db.none(
    'INSERT INTO activity_log (actor, action, category, target_type, target_id, summary) VALUES ($1, $2, $3, $4, $5, $6)',
    [entry.actor, entry.action, entry.category, entry.targetType, String(entry.targetId), entry.summary],
  );
}
