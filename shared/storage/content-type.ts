// Content types of stored files: from a key's extension (serving) and from magic bytes (uploads).

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

const CONTENT_TYPE_BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['webp', 'image/webp'],
  ['gif', 'image/gif'],
  ['avif', 'image/avif'],
  ['mp4', 'video/mp4'],
  ['webm', 'video/webm'],
  ['mov', 'video/quicktime'],
  ['json', 'application/json'],
]);

/** Content type for a key or path by its extension (case-insensitive); octet-stream when unknown. */
export function contentTypeForKey(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return DEFAULT_CONTENT_TYPE;
  return CONTENT_TYPE_BY_EXTENSION.get(name.slice(dot + 1).toLowerCase()) ?? DEFAULT_CONTENT_TYPE;
}

/** Extension (without dot) that the project uses when it names a stored file of this type. */
export function extensionForContentType(contentType: string): string | null {
  switch (contentType) {
    case 'image/jpeg': return 'jpg';
    case 'image/png': return 'png';
    case 'image/webp': return 'webp';
    case 'image/gif': return 'gif';
    case 'image/avif': return 'avif';
    case 'video/mp4': return 'mp4';
    case 'video/webm': return 'webm';
    case 'video/quicktime': return 'mov';
    case 'application/json': return 'json';
    default: return null;
  }
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  for (let i = 0; i < signature.length; i++) {
    if (bytes[offset + i] !== signature[i]) return false;
  }
  return true;
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

// ISO BMFF brands (ftyp box) that mean AVIF; HEIC and other HEIF brands are not supported.
const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'mif2']);
const QUICKTIME_BRAND = 'qt  ';

function sniffIsoBmff(bytes: Uint8Array): string | null {
  // box: size(4) 'ftyp'(4) major_brand(4) minor_version(4) compatible_brands(4 each)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxSize = view.getUint32(0);
  const end = Math.min(bytes.length, boxSize >= 16 ? boxSize : 16);
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, at + 4));
  if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'image/avif';
  if (brands[0] === QUICKTIME_BRAND) return 'video/quicktime';
  if (brands.some((brand) => HEIF_BRANDS.has(brand))) return null;
  return 'video/mp4';
}

function sniffEbml(bytes: Uint8Array): string | null {
  // The EBML header names its DocType near the start: "webm" or "matroska".
  const header = ascii(bytes, 4, Math.min(bytes.length, 64));
  return header.includes('webm') ? 'video/webm' : null;
}

/**
 * Content type of a file by its magic bytes: JPEG, PNG, GIF, WebP, AVIF, MP4, MOV, WebM.
 * Null for anything else (including HEIC and non-WebM Matroska, which the site does not accept).
 */
export function sniffContentType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return 'image/gif';
  }
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (bytes.length >= 12 && startsWith(bytes, [0x66, 0x74, 0x79, 0x70], 4)) return sniffIsoBmff(bytes);
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return sniffEbml(bytes);
  return null;
}
