// What the calendar shows for a month (api-service.md 4.4): the stored schedules and the current
// members' birthdays, in display order; and a birthday as a schedule of its own.
import type { Queryable } from '../db/database.ts';
import { birthdaysInMonth } from '../db/repositories/members.ts';
import { schedulesBetween, type Category, type ScheduleItem } from '../db/repositories/schedules.ts';
import { ScheduleListQuery } from '../../schemas/schedules.ts';

/** The years the monthly listing accepts (its `year` parameter). */
const LISTING_YEARS = { minimum: ScheduleListQuery.properties.year.minimum!, maximum: ScheduleListQuery.properties.year.maximum! };

export const BIRTHDAY_CATEGORY_ID = 10;

export type CategoryRow = Category & { sortOrder: number };

const pad2 = (n: number) => String(n).padStart(2, '0');
const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** A member's birthday in a given year; 29 February is shown on 28 February in other years. */
export function birthdayIn(year: number, birthDate: string): string {
  const monthDay = birthDate.slice(5);
  return `${year}-${monthDay === '02-29' && !isLeapYear(year) ? '02-28' : monthDay}`;
}

/** Timed items first by time, then the day's birthdays in display order, then other untimed items. */
function dayRank(item: ScheduleItem): number {
  if (item.time !== null) return 0;
  return item.isBirthday ? 1 : 2;
}

/**
 * The categories, read once and kept (a failed read is tried again next time); read again when
 * `generation` changes (the routes pass the month cache's: a category write drops every month).
 */
export function categoriesLoader(db: Queryable, generation: () => number = () => 0): () => Promise<CategoryRow[]> {
  let categories: Promise<CategoryRow[]> | null = null;
  let loadedAt = generation();
  return () => {
    const current = generation();
    if (current !== loadedAt) {
      categories = null;
      loadedAt = current;
    }
    return (categories ??= db.any('SELECT id, name, color, sort_order AS "sortOrder" FROM schedule_categories ORDER BY sort_order, id').catch((error: unknown) => {
      categories = null;
      throw error;
    }));
  };
}

export const birthdayCategory = (categories: CategoryRow[]) => {
  const category = categories.find((c) => c.id === BIRTHDAY_CATEGORY_ID);
  return { id: BIRTHDAY_CATEGORY_ID, name: category?.name ?? '생일', color: category?.color ?? '#ec4899' };
};

/** The month's schedules with the birthdays, sorted by date, then rank, then time. */
export async function monthSchedules(db: Queryable, categories: () => Promise<CategoryRow[]>, year: number, month: number): Promise<ScheduleItem[]> {
  const from = `${year}-${pad2(month)}-01`;
  const to = month === 12 ? `${year + 1}-01-01` : `${year}-${pad2(month + 1)}-01`;
  const [items, birthdays, allCategories] = await Promise.all([schedulesBetween(db, from, to), birthdaysInMonth(db, year, month), categories()]);
  const category = birthdayCategory(allCategories);
  const birthdayItems: ScheduleItem[] = birthdays.map((member) => ({
    id: `birthday-${member.id}-${year}`,
    title: `${member.name} 생일`,
    date: birthdayIn(year, member.birthDate),
    time: null,
    category,
    source: null,
    members: [{ id: member.id, name: member.name }],
    isBirthday: true,
  }));
  // Stable sort keeps the SQL order (time, id) and the birthdays' display order within each rank.
  return [...items, ...birthdayItems].sort((a, b) => a.date.localeCompare(b.date) || dayRank(a) - dayRank(b) || (a.time ?? '').localeCompare(b.time ?? ''));
}

/** A birthday's detail from its id (`birthday-<memberId>-<year>`); undefined when `id` is not one, null when there is no such member or birthday. */
export async function birthdayDetail(db: Queryable, categories: () => Promise<CategoryRow[]>, id: string) {
  const birthday = /^birthday-(\d{1,10})-(\d{4})$/.exec(id);
  if (!birthday) return undefined;
  const memberId = Number(birthday[1]);
  const year = Number(birthday[2]);
  // Only a birthday the monthly listing shows (birthdaysInMonth): a current member's, in a year the
  // listing accepts, from her birth year on.
  if (year < LISTING_YEARS.minimum || year > LISTING_YEARS.maximum) return null;
  const member = await db.oneOrNone<{ id: number; name: string; birth_date: string }>(
    `SELECT id, name, to_char(birth_date, 'YYYY-MM-DD') AS birth_date FROM members
      WHERE id = $1 AND NOT is_former AND birth_date IS NOT NULL AND extract(year FROM birth_date) <= $2`,
    [memberId, year],
  );
  if (!member) return null;
  return {
    id, title: `${member.name} 생일`, date: birthdayIn(year, member.birth_date), time: null,
    category: birthdayCategory(await categories()),
    source: null, members: [{ id: member.id, name: member.name }], isBirthday: true, description: null, images: [],
  };
}
