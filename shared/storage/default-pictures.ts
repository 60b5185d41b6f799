// The default profile pictures new accounts point at (auth-service.md 2.4:
// `profile/default_profile_<1..16>.png`): drawn once at start into the storage when missing, so a
// fresh DATA_DIR or bucket serves them. Sixteen small PNGs through sharp (libuv threads, off the
// event loop), before the edge listens.
import sharp from 'sharp';
import type { Logger } from '../runtime/logger.ts';
import type { Storage } from './storage.ts';

export const DEFAULT_PROFILE_PICTURES = 16;
const SIZE = 256;

export const defaultPictureKey = (n: number) => `profile/default_profile_${n}.png`;

/** A silhouette on one of sixteen background hues. */
function pictureSvg(n: number): string {
  const hue = Math.round(((n - 1) * 360) / DEFAULT_PROFILE_PICTURES);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 256 256">
  <rect width="256" height="256" fill="hsl(${hue}, 55%, 72%)"/>
  <circle cx="128" cy="100" r="48" fill="hsl(${hue}, 35%, 96%)"/>
  <ellipse cx="128" cy="230" rx="84" ry="66" fill="hsl(${hue}, 35%, 96%)"/>
</svg>`;
}

export function drawDefaultPicture(n: number): Promise<Buffer> {
  return sharp(Buffer.from(pictureSvg(n))).png({ compressionLevel: 9 }).toBuffer();
}

/** Stores every default picture the storage lacks; returns how many were drawn. */
export async function ensureDefaultPictures(storage: Storage, logger: Logger): Promise<number> {
  let drawn = 0;
  for (let n = 1; n <= DEFAULT_PROFILE_PICTURES; n++) {
    const key = defaultPictureKey(n);
    const existing = await storage.openFile(key);
    if (existing) {
      existing.release();
      continue;
    }
    await storage.put(key, await drawDefaultPicture(n), 'image/png');
    drawn++;
  }
  if (drawn > 0) logger.info({ drawn }, 'default profile pictures stored');
  return drawn;
}
