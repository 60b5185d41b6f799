// Uploaded files decoded and resized in the image pool before any write, so a bad file stores
// nothing; storing the variants is the domain's (shared/storage/image-files.ts).
import { ImageError, type ImagePool, type ProcessedImage } from '../workers/image-pool.ts';
import { HttpError } from '../shared/errors.ts';
import type { UploadedFile } from './multipart.ts';

/**
 * Every file decoded and resized, in order; the first file that is not an acceptable image gives 400 (413 past the pixel limit).
 * Takes ownership of the files' bytes (ImagePool.process): afterwards use each result's `original`.
 */
export async function processUploads(pool: ImagePool, files: UploadedFile[]): Promise<ProcessedImage[]> {
  const results = await Promise.allSettled(files.map((file) => pool.process(file.bytes)));
  return results.map((result, index) => {
    if (result.status === 'fulfilled') return result.value;
    const name = files[index]!.fileName || `${index + 1}번째 파일`;
    if (result.reason instanceof ImageError) {
      if (result.reason.code === 'IMAGE_TOO_LARGE') throw new HttpError(413, `'${name.slice(0, 100)}': 이미지의 픽셀 수가 너무 많습니다.`, {}, 'image_too_large');
      throw new HttpError(400, `'${name.slice(0, 100)}': 이미지 파일이 아니거나 손상된 이미지입니다.`, {}, 'invalid_image');
    }
    throw result.reason;
  });
}
