// Schedule category administration: request bodies of /api/schedule-categories.
import { Type } from '@sinclair/typebox';
import { IdParam } from './common.ts';

export const CategoryName = Type.String({ minLength: 1, maxLength: 30, pattern: '\\S', description: 'unique' });
export const CategoryColor = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb' });

export const CategoryCreate = Type.Object({ name: CategoryName, color: CategoryColor }, { additionalProperties: false });
export const CategoryUpdate = Type.Object({ name: Type.Optional(CategoryName), color: Type.Optional(CategoryColor) }, { additionalProperties: false });
export const CategoryOrder = Type.Object({ ids: Type.Array(IdParam, { minItems: 1, maxItems: 1000 }) }, { additionalProperties: false });
