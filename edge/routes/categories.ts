// Schedule category administration: /api/schedule-categories and the display order.
// The list itself (GET) stays with the schedules routes, which cache it.
import { CategoryCreate, CategoryOrder, CategoryUpdate } from '../../schemas/categories.ts';
import { ErrorResponse, SuccessResponse } from '../../schemas/common.ts';
import { IdResponse } from '../../schemas/events.ts';
import { compile } from '../../schemas/validate.ts';
import { CategoryListItem } from '../../schemas/schedules.ts';
import { notFound } from '../../shared/errors.ts';
import { CategoryInUseError, categoryWithVersion, createCategory, deleteCategory, reorderCategories, updateCategory } from '../../shared/schedules/category-writes.ts';
import type { Services } from '../../shared/services.ts';
import { reply, type Context } from '../context.ts';
import { parseId } from '../params.ts';
import type { Route } from '../router.ts';

const createBody = compile(CategoryCreate, { plainText: true });
const updateBody = compile(CategoryUpdate, { plainText: true });
const orderBody = compile(CategoryOrder, { plainText: true });


async function get(s: Services, ctx: Context) {
  const found = await categoryWithVersion(s.db, parseId(ctx.params.id));
  if (!found) throw notFound('해당 일정 분류를 찾을 수 없습니다.');
  const { version, ...category } = found;
  return { ...reply(category), version };
}

async function remove(s: Services, ctx: Context) {
  try {
    await deleteCategory(s, parseId(ctx.params.id), ctx.precondition);
  } catch (error) {
    if (error instanceof CategoryInUseError) return reply({ error: error.message, code: 'in_use', count: error.count }, 409);
    throw error;
  }
  return reply({ success: true });
}

export function categoryRoutes(s: Services): Route[] {
  const tags = ['schedules'];
  return [
    {
      method: 'get', path: '/api/schedule-categories/:id', handler: (ctx) => get(s, ctx),
      doc: { versioned: 'read', summary: 'One schedule category, with its ETag (for If-Match on its PUT and DELETE)', tags, responses: { 200: CategoryListItem, 400: ErrorResponse, 404: ErrorResponse } },
    },
    {
      method: 'post', path: '/api/schedule-categories', auth: 'admin',
      handler: async (ctx) => reply({ id: await createCategory(s, createBody.parse(await ctx.json())) }, 201),
      doc: { summary: 'Add a schedule category (last in the display order)', tags, body: CategoryCreate, description: 'A name another category has → 409. Every cached month and the category list follow at once.', responses: { 201: IdResponse, 400: ErrorResponse, 409: ErrorResponse } },
    },
    {
      method: 'put', path: '/api/schedule-categories/:id', auth: 'admin',
      handler: async (ctx) => {
        const id = parseId(ctx.params.id);
        await updateCategory(s, id, updateBody.parse(await ctx.json()), ctx.precondition);
        return reply({ id });
      },
      doc: { versioned: 'write', summary: 'Rename or recolour a schedule category', tags, body: CategoryUpdate, description: 'Unknown id → 404; renaming the built-in birthday (10) or event (11) category → 400 (their colour may change); a name another category has → 409.', responses: { 200: IdResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse } },
    },
    {
      method: 'delete', path: '/api/schedule-categories/:id', auth: 'admin', handler: (ctx) => remove(s, ctx),
      doc: { versioned: 'write', summary: 'Delete an empty schedule category', tags, description: 'Birthday (10), event (11), video (6) and SNS (7) categories → 400 (the bots write into 6 and 7); unknown id → 404; a category schedules still use → 409 with their count.', responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse } },
    },
    {
      method: 'put', path: '/api/schedule-categories-order', auth: 'admin',
      handler: async (ctx) => {
        await reorderCategories(s, orderBody.parse(await ctx.json()).ids);
        return reply({ success: true });
      },
      doc: { summary: 'Set the display order of the categories', tags, body: CategoryOrder, description: '`ids`: every category exactly once, first shown first. A duplicate, an unknown or a missing id → 400 and nothing changes.', responses: { 200: SuccessResponse, 400: ErrorResponse } },
    },
  ];
}
