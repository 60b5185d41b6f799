// Conditional requests (RFC 9110 §13): whether the client already holds the representation it
// names in If-None-Match, which turns a cacheable answer or a stored file into a 304.

/** If-None-Match against an ETag with the weak comparison (RFC 9110 13.1.2): `W/"x"` matches `"x"`. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true; // the common revalidation: the tag sent back as received
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const entry of ifNoneMatch.split(',')) {
    const tag = entry.trim();
    if (tag === '*' || tag === opaque || (tag.startsWith('W/') && tag.slice(2) === opaque)) return true;
  }
  return false;
}
