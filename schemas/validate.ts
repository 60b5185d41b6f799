// Schemas are compiled once (ajv) and are the single source for validation, types and OpenAPI.
import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { firstControlCharacter } from '../shared/control-characters.ts';
import { badRequest, type ErrorCode } from '../shared/errors.ts';

const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false });
(addFormatsPlugin as unknown as (a: Ajv) => void)(ajv);

export interface Validator<T extends TSchema> {
  schema: T;
  check(value: unknown): value is Static<T>;
  /** The value typed by its schema, or 400 with a Korean message naming the field. */
  parse(value: unknown): Static<T>;
}

export function describeError(error: ErrorObject | undefined): string {
  if (!error) return '요청 형식이 올바르지 않습니다.';
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const field = error.keyword === 'required' ? String(error.params.missingProperty) : path;
  const name = field ? `'${field}'` : '요청 본문';
  switch (error.keyword) {
    case 'required':
      return `${name} 항목이 필요합니다.`;
    case 'type':
      return `${name} 항목의 형식이 올바르지 않습니다 (${String(error.params.type)} 필요).`;
    case 'minLength':
      return Number(error.params.limit) <= 1 ? `${name} 항목이 비어 있습니다.` : `${name} 항목은 ${String(error.params.limit)}자 이상이어야 합니다.`;
    case 'maxLength':
      return `${name} 항목은 ${String(error.params.limit)}자 이하여야 합니다.`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${name} 항목의 값이 너무 작습니다.`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${name} 항목의 값이 너무 큽니다.`;
    case 'maxItems':
      return `${name} 항목의 개수가 너무 많습니다.`;
    case 'uniqueItems':
      return `${name} 항목에 중복된 값이 있습니다.`;
    case 'enum':
    case 'const':
      return `${name} 항목의 값이 허용되지 않습니다.`;
    case 'additionalProperties':
      return `알 수 없는 항목 '${String(error.params.additionalProperty)}'이(가) 있습니다.`;
    default:
      return `${name} 항목의 형식이 올바르지 않습니다.`;
  }
}

/** The path (`tracks.2.title`) and character of the first string holding a control character, or null. */
function controlCharacterIn(value: unknown, path: string): { path: string; character: string } | null {
  if (typeof value === 'string') {
    const character = firstControlCharacter(value);
    return character === null ? null : { path, character };
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = controlCharacterIn(item, path === '' ? key : `${path}.${key}`);
    if (found !== null) return found;
  }
  return null;
}

export interface CompileOptions {
  /** The error code of a refusal: `invalid_body` (the default), `invalid_query` for a query string. */
  code?: ErrorCode;
  /**
   * Text an administrator writes (titles, descriptions, names): a string anywhere in the value
   * holding a control character (shared/control-characters.ts) is 400 `control_character`.
   */
  plainText?: boolean;
}

export function compile<T extends TSchema>(schema: T, options: ErrorCode | CompileOptions = {}): Validator<T> {
  const { code = 'invalid_body', plainText = false } = typeof options === 'string' ? { code: options } : options;
  const validate: ValidateFunction = ajv.compile(schema);
  const control = (value: unknown) => (plainText ? controlCharacterIn(value, '') : null);
  return {
    schema,
    check: (value): value is Static<T> => (validate(value) as boolean) && control(value) === null,
    parse: (value) => {
      if (!validate(value)) throw badRequest(describeError(validate.errors?.[0]), code);
      const found = control(value);
      if (found !== null) throw badRequest(`'${found.path}' 항목에 제어 문자(${found.character})가 있습니다.`, 'control_character');
      return value as Static<T>;
    },
  };
}
