// Real images for upload tests, made with sharp.
import sharp from 'sharp';

const canvas = (width: number, height: number, seed: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 29) % 256 } } });

export const pngImage = (width = 1200, height = 900, seed = 1) => canvas(width, height, seed).png().toBuffer();
export const jpegImage = (width = 1600, height = 1000, seed = 2) => canvas(width, height, seed).jpeg().toBuffer();
export const webpImage = (width = 640, height = 480, seed = 3) => canvas(width, height, seed).webp().toBuffer();

/** Long side of an encoded image. */
export async function longSide(bytes: Uint8Array): Promise<number> {
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  return Math.max(width, height);
}
