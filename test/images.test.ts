// Image uploads (decisions.md, "Every image upload becomes an image record with three sizes"):
// original as uploaded, medium 800 px and thumb 400 px on the long side, WebP; a part that is
// not a decodable image is refused. Runs the real Piscina pool with the real sharp worker.
import { deflateSync } from 'node:zlib';
import test, { type ExecutionContext } from 'ava';
import sharp, { type Sharp } from 'sharp';
import { sniffContentType } from '../shared/storage/content-type.ts';
import { createImagePool, ImageError, LARGE_INPUT_BYTES, type ImageErrorCode, type ImagePool, type ProcessedImage } from '../workers/image-pool.ts';

let pool: ImagePool;

test.before(() => {
  pool = createImagePool({ threads: 2 });
});

test.after.always(async () => {
  await pool?.close();
});

async function size(bytes: Uint8Array) {
  const { width, height, format } = await sharp(bytes).metadata();
  return { width, height, format };
}

/** A picture with structure (gradient and blocks), so encoders do real work. */
async function picture(width: number, height: number, channels: 3 | 4 = 3): Promise<Sharp> {
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * channels;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = ((x >> 5) + (y >> 5)) % 2 === 0 ? 200 : 40;
      if (channels === 4) pixels[at + 3] = x < width / 2 ? 255 : 128;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } });
}

async function expectVariants(
  t: ExecutionContext,
  result: ProcessedImage,
  medium: { width: number; height: number },
  thumb: { width: number; height: number },
) {
  t.is(sniffContentType(result.medium), 'image/webp');
  t.is(sniffContentType(result.thumb), 'image/webp');
  t.deepEqual(await size(result.medium), { ...medium, format: 'webp' });
  t.deepEqual(await size(result.thumb), { ...thumb, format: 'webp' });
}

async function expectImageError(t: ExecutionContext, bytes: Uint8Array, code: ImageErrorCode) {
  const error = await t.throwsAsync(pool.process(bytes), { instanceOf: ImageError });
  t.is(error?.code, code);
}

test('a JPEG gives the original unchanged, an 800 px medium and a 400 px thumb, both WebP', async (t) => {
  const jpeg = await (await picture(2400, 1600)).jpeg({ quality: 85 }).toBuffer();
  const copy = Uint8Array.from(jpeg);
  const result = await pool.process(jpeg);
  t.is(result.format, 'jpeg');
  t.deepEqual([result.width, result.height], [2400, 1600]);
  t.deepEqual(Buffer.from(result.original), Buffer.from(copy));
  await expectVariants(t, result, { width: 800, height: 533 }, { width: 400, height: 267 });
});

test('a PNG with transparency keeps its alpha channel in the WebP sizes', async (t) => {
  const png = await (await picture(1200, 900, 4)).png().toBuffer();
  const result = await pool.process(png);
  t.is(result.format, 'png');
  t.deepEqual([result.width, result.height], [1200, 900]);
  await expectVariants(t, result, { width: 800, height: 600 }, { width: 400, height: 300 });
  t.true((await sharp(result.medium).metadata()).hasAlpha);
});

test('a portrait WebP is sized by its long side (the height)', async (t) => {
  const webp = await (await picture(900, 1800)).webp().toBuffer();
  const result = await pool.process(webp);
  t.is(result.format, 'webp');
  await expectVariants(t, result, { width: 400, height: 800 }, { width: 200, height: 400 });
});

test('GIF and AVIF uploads are accepted too', async (t) => {
  const gif = await (await picture(1000, 500)).gif().toBuffer();
  const avif = await (await picture(500, 1000)).avif({ quality: 50, effort: 0 }).toBuffer();
  const [fromGif, fromAvif] = await Promise.all([pool.process(gif), pool.process(avif)]);
  t.is(fromGif.format, 'gif');
  await expectVariants(t, fromGif, { width: 800, height: 400 }, { width: 400, height: 200 });
  t.is(fromAvif.format, 'avif');
  await expectVariants(t, fromAvif, { width: 400, height: 800 }, { width: 200, height: 400 });
});

test('a small image is never enlarged', async (t) => {
  const png = await (await picture(300, 200)).png().toBuffer();
  const result = await pool.process(png);
  t.deepEqual([result.width, result.height], [300, 200]);
  await expectVariants(t, result, { width: 300, height: 200 }, { width: 300, height: 200 });
});

test('a between-sizes image is shrunk for the thumb only', async (t) => {
  const jpeg = await (await picture(600, 450)).jpeg().toBuffer();
  const result = await pool.process(jpeg);
  await expectVariants(t, result, { width: 600, height: 450 }, { width: 400, height: 300 });
});

test('a JPEG with EXIF orientation 6 is turned upright; width and height are as displayed', async (t) => {
  // Stored landscape 1200×600: left half red, right half blue. Orientation 6 = display rotated 90° clockwise,
  // so upright it is portrait 600×1200 with red on top and blue below.
  const width = 1200;
  const height = 600;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      if (x < width / 2) pixels[at] = 255;
      else pixels[at + 2] = 255;
    }
  }
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
  t.is((await sharp(jpeg).metadata()).orientation, 6);

  const result = await pool.process(jpeg);
  t.deepEqual([result.width, result.height], [600, 1200]);
  await expectVariants(t, result, { width: 400, height: 800 }, { width: 200, height: 400 });
  const { data, info } = await sharp(result.medium).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
  const [topRed, , topBlue] = pixel(200, 100);
  const [bottomRed, , bottomBlue] = pixel(200, 700);
  t.true(topRed! > 200 && topBlue! < 60, `top should be red, got ${pixel(200, 100)}`);
  t.true(bottomBlue! > 200 && bottomRed! < 60, `bottom should be blue, got ${pixel(200, 700)}`);
});

test('a text file named .jpg is IMAGE_INVALID', async (t) => {
  await expectImageError(t, new TextEncoder().encode('안녕하세요, this is not a picture.\n'.repeat(20)), 'IMAGE_INVALID');
});

test('an empty upload is IMAGE_INVALID', async (t) => {
  await expectImageError(t, new Uint8Array(0), 'IMAGE_INVALID');
});

test('a truncated JPEG is IMAGE_INVALID', async (t) => {
  const jpeg = await (await picture(1600, 1200)).jpeg().toBuffer();
  await expectImageError(t, Uint8Array.from(jpeg.subarray(0, Math.floor(jpeg.length / 2))), 'IMAGE_INVALID');
});

test('a JPEG header followed by garbage is IMAGE_INVALID', async (t) => {
  const bytes = new Uint8Array(4096).fill(0x41);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  await expectImageError(t, bytes, 'IMAGE_INVALID');
});

test('SVG and TIFF are IMAGE_INVALID: only JPEG, PNG, WebP, GIF and AVIF reach the decoder', async (t) => {
  const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
  const tiff = await (await picture(64, 64)).tiff().toBuffer();
  await expectImageError(t, svg, 'IMAGE_INVALID');
  await expectImageError(t, tiff, 'IMAGE_INVALID');
});

/** A valid 1×1 PNG whose IHDR is rewritten to claim width×height: a few hundred bytes, a bomb when decoded. */
function pngClaiming(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  // One row of zeros, compressed: the declared size is what a decoder would allocate.
  const rows = deflateSync(Buffer.alloc(1 + width));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

test('a decompression bomb (tiny PNG declaring 20000×20000) is IMAGE_TOO_LARGE', async (t) => {
  const bomb = pngClaiming(20_000, 20_000);
  t.true(bomb.length < 1024);
  await expectImageError(t, bomb, 'IMAGE_TOO_LARGE');
});

test('just over the 40 megapixel limit is IMAGE_TOO_LARGE', async (t) => {
  await expectImageError(t, pngClaiming(8000, 5001), 'IMAGE_TOO_LARGE');
});

test.serial('the pool processes 8 images concurrently and stays usable after failures', async (t) => {
  const jpegs = await Promise.all(
    Array.from({ length: 8 }, async (_, i) => (await picture(1600 + i * 10, 1200)).jpeg({ quality: 80 }).toBuffer()),
  );
  const results = await Promise.all([
    ...jpegs.map((jpeg) => pool.process(jpeg)),
    pool.process(new TextEncoder().encode('not an image')).catch((error: unknown) => error),
  ]);
  const images = results.slice(0, 8) as ProcessedImage[];
  t.deepEqual(images.map((image) => image.width), jpegs.map((_, i) => 1600 + i * 10));
  for (const image of images) t.is(sniffContentType(image.medium), 'image/webp');
  t.true(results[8] instanceof ImageError);
  const stats = pool.stats();
  t.is(stats.queued, 0);
  t.true(stats.threads >= 1 && stats.threads <= 2);
});

test.serial('posters share a thread two at a time; an input of LARGE_INPUT_BYTES or more has a thread to itself', async (t) => {
  const own = createImagePool({ threads: 2, minThreads: 2 });
  t.teardown(() => own.close());
  const posters = await Promise.all([0, 1, 2, 3].map(async (i) => (await picture(900 + i, 700)).jpeg().toBuffer()));
  const noise = { type: 'gaussian', mean: 128, sigma: 60 } as const;
  const large = await sharp({ create: { width: 1900, height: 1700, channels: 3, background: '#000', noise } }).png({ compressionLevel: 1 }).toBuffer();
  t.true(large.length >= LARGE_INPUT_BYTES, `${large.length} bytes`);
  const submit = (inputs: Buffer[]) => inputs.map((bytes) => own.process(Buffer.from(bytes)));

  // Tasks are placed as they are submitted: right after four posters, none waits once both threads are up.
  let waiting = -1;
  for (const until = Date.now() + 10_000; waiting !== 0 && Date.now() < until; ) {
    const burst = submit(posters);
    waiting = own.stats().queued;
    await Promise.all(burst);
  }
  t.is(waiting, 0, 'four posters on two threads at once');

  // Two large inputs take the two threads alone; the two posters behind them wait for one to finish.
  const mixed = submit([large, large, posters[0]!, posters[1]!]);
  t.is(own.stats().queued, 2);
  t.deepEqual((await Promise.all(mixed)).map((image) => image.width), [1900, 1900, 900, 901]);
  t.is(own.stats().queued, 0);

  // A large input waits for a thread of its own, first in line: the posters sent after it do not
  // overtake it, or a steady flow of them would keep it waiting until they stop.
  const done: string[] = [];
  const track = (promise: Promise<ProcessedImage>, name: string) => promise.then(() => done.push(name));
  const before = posters.map((bytes, i) => track(own.process(Buffer.from(bytes)), `poster ${i}`));
  const alone = track(own.process(Buffer.from(large)), 'large');
  const after = Array.from({ length: 24 }, (_, i) => track(own.process(Buffer.from(posters[i % 4]!)), `later poster ${i}`));
  await Promise.all([...before, alone, ...after]);
  t.true(done.indexOf('large') < done.length - 4, `finished in this order: ${done.join(', ')}`);
});

test('bytes that fill their buffer are transferred; a slice of a shared buffer is copied and left intact', async (t) => {
  const jpeg = Uint8Array.from(await (await picture(500, 400)).jpeg().toBuffer());
  const length = jpeg.length;
  const whole = await pool.process(jpeg);
  t.is(jpeg.byteLength, 0, 'transferred to the worker');
  t.is(whole.original.length, length);

  const shared = new Uint8Array(length + 100);
  shared.set(whole.original, 50);
  const slice = shared.subarray(50, 50 + length);
  const fromSlice = await pool.process(slice);
  t.is(slice.length, length, 'the caller keeps its view');
  t.deepEqual(Buffer.from(fromSlice.original), Buffer.from(slice));
});
