// Optimistic concurrency for administrators (RFC 9110 §13.1.1): each resource an administrator edits
// carries a version, bumped by every update of its row (a trigger: a schedule's `revision`, migration
// 023; the `version` of albums, members and categories, migration 028). Its GET answers an
// ETag that starts with that version; a write sent with If-Match applies only while the version it
// names is still current, checked inside the write's transaction under the row's lock, so of two
// administrators who read the same version only the first writes. Without If-Match a write applies.
import { HttpError } from './errors.ts';

/** What an If-Match header asks: any current representation (`*`), or one of these versions. */
export type Precondition = { readonly any: true } | { readonly versions: readonly number[] };

/**
 * The ETag of a versioned resource: its version, then a hash of the representation (so a change it
 * embeds, another member's new name, still changes the tag that If-None-Match compares).
 */
export const versionedEtag = (version: number, representationTag: string) => `"v${version}-${representationTag.replace(/^"|"$/g, '')}"`;

const VERSION_TAG = /^"v(\d{1,9})-[^"]*"$/;

/**
 * If-Match as a precondition: null when absent. Strong comparison: a weak tag (`W/"…"`) never
 * matches, and a tag this server did not make names no version, so both fail the write with 412.
 */
export function parseIfMatch(header: string | undefined): Precondition | null {
  if (header === undefined) return null;
  const versions: number[] = [];
  for (const entry of header.split(',')) {
    const tag = entry.trim();
    if (tag === '*') return { any: true };
    const match = VERSION_TAG.exec(tag);
    if (match) versions.push(Number(match[1]));
  }
  return { versions };
}

export const preconditionFailed = () =>
  new HttpError(412, '다른 관리자가 먼저 수정했습니다. 최신 내용을 다시 불러온 뒤 수정해 주세요.', {}, 'precondition_failed');

/** Throws 412 unless the precondition holds for the row's current version (read under its lock). */
export function checkPrecondition(precondition: Precondition | null | undefined, version: number): void {
  if (!precondition || 'any' in precondition) return;
  if (!precondition.versions.includes(version)) throw preconditionFailed();
}
