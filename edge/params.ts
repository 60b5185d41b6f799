// Request values parsed once from the path and the query; 400 with a clear message otherwise.
// Checks that need the database (member ids that exist) belong to their domain, not here.
import { badRequest } from '../shared/errors.ts';

const MAX_ID = 2_147_483_647;

/** A positive integer id from a path segment; 400 when it is not one. */
export function parseId(value: string | undefined, what = 'id'): number {
  if (value === undefined || !/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > MAX_ID) {
    throw badRequest(`'${what}' 값이 올바른 ID가 아닙니다.`);
  }
  return Number(value);
}

/** An integer query parameter within [min, max], or the fallback when absent. */
export function intQuery(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?[0-9]{1,10}$/.test(raw)) throw badRequest(`'${name}' 값은 정수여야 합니다.`);
  const value = Number(raw);
  if (value < min || value > max) throw badRequest(`'${name}' 값은 ${min}에서 ${max} 사이여야 합니다.`);
  return value;
}
