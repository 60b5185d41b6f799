import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES } from '../shared/errors.ts';

export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'Korean, human-readable message' }),
    // Open: a client generated today must still accept a code added tomorrow.
    code: Type.String({ examples: [...ERROR_CODES], description: `stable, machine-readable reason. New codes may be added; a client treats an unknown one by its HTTP status. Known codes: ${ERROR_CODES.map((code) => `\`${code}\``).join(', ')}.` }),
    count: Type.Optional(Type.Integer({ description: 'with `in_use`: how many items still use what was to be deleted' })),
  },
  { $id: 'Error' },
);
export const SuccessResponse = Type.Object({ success: Type.Literal(true) });
export const SuccessMessageResponse = Type.Object({ success: Type.Literal(true), message: Type.String() });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `YYYY-MM-DD` that is a real calendar date. */
export const DateString = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
/** `HH:MM`, 00:00 to 23:59. */
export const TimeString = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM' });
export const IdParam = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** An absolute http(s) URL without spaces. */
export const HttpUrl = Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000 });
