// Schedule category administration: create, rename or recolour, delete, reorder. Each
// write logs its activity and, after the commit, drops every cached month (the listing embeds the
// categories' names and colours) and the category list: this process at once, other replicas by a
// schedule.changed entry marked `everyMonth` (schedule id 0 names no schedule: the indexer finds
// nothing to update).
import { conflict, badRequest, notFound } from '../errors.ts';
import { logActivity, type ActivityEntry } from '../db/repositories/activity-log.ts';
import type { Queryable, Tx } from '../db/database.ts';
import { checkPrecondition, type Precondition } from '../precondition.ts';
import type { Services } from '../services.ts';
import { BIRTHDAY_CATEGORY_ID } from './calendar.ts';
import { POST_CATEGORY_ID, VIDEO_CATEGORY_ID } from './collected.ts';
import { recordScheduleChange } from './schedule-changes.ts';
import { EVENT_CATEGORY_ID } from '../../schemas/events.ts';

/** Birthdays and events have their own paths: never renamed or deleted. */
export const FIXED_CATEGORY_IDS: readonly number[] = [BIRTHDAY_CATEGORY_ID, EVENT_CATEGORY_ID];
/** The bots write into these: renamable, never deleted. */
const BOT_CATEGORY_IDS: readonly number[] = [VIDEO_CATEGORY_ID, POST_CATEGORY_ID];

export interface CategoryFields {
  name: string;
  color: string;
}

/** A category still holding schedules: the count goes into the 409 answer. */
export class CategoryInUseError extends Error {
  constructor(readonly count: number) {
    super(`이 분류에 일정 ${count}개가 있어 삭제할 수 없습니다. 일정을 다른 분류로 옮긴 뒤 삭제해 주세요.`);
  }
}

const log = (tx: Tx, entry: Omit<ActivityEntry, 'actor' | 'category'>) => logActivity(tx, { actor: 'admin', category: 'schedule_category', ...entry });
const duplicateName = () => conflict('같은 이름의 분류가 이미 있습니다.', 'name_taken');
const isUniqueViolation = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

async function changed(tx: Tx): Promise<void> {
  await recordScheduleChange(tx, { scheduleId: 0, action: 'update', dates: [], everyMonth: true });
}

function afterCommit(s: Services): void {
  s.monthlyCache.invalidateAll();
  s.live?.wake();
}

export async function createCategory(s: Services, fields: CategoryFields): Promise<number> {
  try {
    const id = await s.db.tx('category-create', async (tx) => {
      await tx.none('LOCK TABLE schedule_categories IN SHARE ROW EXCLUSIVE MODE'); // sort_order: max + 1
      const { id } = await tx.one<{ id: number }>(
        'INSERT INTO schedule_categories (name, color, sort_order) SELECT $1, $2, COALESCE(max(sort_order), 0) + 1 FROM schedule_categories RETURNING id',
        [fields.name.trim(), fields.color.toLowerCase()],
      );
      await log(tx, { action: 'create', targetType: 'schedule_category', targetId: id, summary: `일정 분류 '${fields.name.trim()}' 추가` });
      await changed(tx);
      return id;
    });
    afterCommit(s);
    return id;
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName();
    throw error;
  }
}

export async function updateCategory(s: Services, id: number, fields: Partial<CategoryFields>, precondition?: Precondition | null): Promise<void> {
  try {
    await s.db.tx('category-update', async (tx) => {
      const current = await tx.oneOrNone<{ name: string; version: number }>('SELECT name, version FROM schedule_categories WHERE id = $1 FOR UPDATE', [id]);
      if (!current) throw notFound('해당 일정 분류를 찾을 수 없습니다.');
      checkPrecondition(precondition, current.version);
      const name = fields.name?.trim();
      if (name !== undefined && name !== current.name && FIXED_CATEGORY_IDS.includes(id)) throw badRequest('생일과 행사 분류의 이름은 바꿀 수 없습니다.');
      await tx.none('UPDATE schedule_categories SET name = COALESCE($2, name), color = COALESCE($3, color) WHERE id = $1', [id, name ?? null, fields.color?.toLowerCase() ?? null]);
      await log(tx, { action: 'update', targetType: 'schedule_category', targetId: id, summary: `일정 분류 '${name ?? current.name}' 수정` });
      await changed(tx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName();
    throw error;
  }
  afterCommit(s);
}

/** Deletes an empty category; CategoryInUseError while schedules use it. */
export async function deleteCategory(s: Services, id: number, precondition?: Precondition | null): Promise<void> {
  if (FIXED_CATEGORY_IDS.includes(id)) throw badRequest('생일과 행사 분류는 삭제할 수 없습니다.');
  if (BOT_CATEGORY_IDS.includes(id)) throw badRequest('봇이 수집한 일정이 쓰는 분류(영상, SNS)는 삭제할 수 없습니다.');
  await s.db.tx('category-delete', async (tx) => {
    // The lock keeps a schedule from joining the category between the count and the delete.
    const current = await tx.oneOrNone<{ name: string; version: number }>('SELECT name, version FROM schedule_categories WHERE id = $1 FOR UPDATE', [id]);
    if (!current) throw notFound('해당 일정 분류를 찾을 수 없습니다.');
    checkPrecondition(precondition, current.version);
    const { count } = await tx.one<{ count: number }>('SELECT count(*)::int AS count FROM schedules WHERE category_id = $1', [id]);
    if (count > 0) throw new CategoryInUseError(count);
    await tx.none('DELETE FROM schedule_categories WHERE id = $1', [id]);
    await log(tx, { action: 'delete', targetType: 'schedule_category', targetId: id, summary: `일정 분류 '${current.name}' 삭제` });
    await changed(tx);
  });
  afterCommit(s);
}

/** The display order: `ids` must name every category exactly once. */
export async function reorderCategories(s: Services, ids: number[]): Promise<void> {
  const duplicates = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
  if (duplicates.length > 0) throw badRequest(`순서 목록에 중복된 분류 ID가 있습니다: ${duplicates.join(', ')}`);
  await s.db.tx('category-order', async (tx) => {
    await tx.none('LOCK TABLE schedule_categories IN SHARE ROW EXCLUSIVE MODE');
    const existing = (await tx.any<{ id: number }>('SELECT id FROM schedule_categories')).map((row) => row.id);
    const unknown = ids.filter((id) => !existing.includes(id));
    if (unknown.length > 0) throw badRequest(`존재하지 않는 분류 ID입니다: ${unknown.join(', ')}`);
    const missing = existing.filter((id) => !ids.includes(id)).sort((a, b) => a - b);
    if (missing.length > 0) throw badRequest(`순서 목록에 모든 분류가 있어야 합니다. 빠진 분류 ID: ${missing.join(', ')}`);
    await tx.none('UPDATE schedule_categories c SET sort_order = o.position FROM unnest($1::int[]) WITH ORDINALITY AS o(id, position) WHERE c.id = o.id', [ids]);
    await log(tx, { action: 'update', targetType: 'schedule_category', targetId: 'order', summary: '일정 분류 순서 변경' });
    await changed(tx);
  });
  afterCommit(s);
}

/** One category with its version (its ETag), or null when there is none. */
export function categoryWithVersion(db: Queryable, id: number) {
  return db.oneOrNone<{ id: number; name: string; color: string; sortOrder: number; version: number }>(
    'SELECT id, name, color, sort_order AS "sortOrder", version FROM schedule_categories WHERE id = $1',
    [id],
  );
}

/** Whether a category exists and takes general schedules (not birthdays or events): an error message otherwise. */
export async function generalCategoryProblem(s: Services, categoryId: number): Promise<string | null> {
  if (FIXED_CATEGORY_IDS.includes(categoryId)) return '생일과 행사 일정은 전용 경로로 등록해 주세요 (categoryId 10, 11 불가).';
  const found = await s.db.oneOrNone('SELECT 1 FROM schedule_categories WHERE id = $1', [categoryId]);
  return found ? null : `존재하지 않는 분류 ID입니다: ${categoryId}`;
}
