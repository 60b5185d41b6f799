// Streamed multipart/form-data through @fastify/busboy, with limits that answer 413/400 instead of
// buffering without bound. Files are collected whole (each under its size limit): the image pool
// needs the complete bytes anyway.
import { Busboy } from '@fastify/busboy';
import { badRequest, HttpError, payloadTooLarge } from '../shared/errors.ts';
import { parseJson, type Context } from './context.ts';

export interface UploadedFile {
  fieldName: string;
  fileName: string;
  mimeType: string;
  bytes: Buffer;
}

export interface MultipartLimits {
  /** Largest single file in bytes. */
  fileSize: number;
  files: number;
  /** Largest text part in bytes (the JSON payload). */
  fieldSize: number;
  fields: number;
}

export const IMAGE_UPLOAD_LIMITS: MultipartLimits = { fileSize: 20 * 1024 * 1024, files: 20, fieldSize: 256 * 1024, fields: 4 };
/** Whole multipart body with several images: files are held in memory until the image pool has them. */
export const IMAGE_UPLOAD_BODY_LIMIT = 100 * 1024 * 1024;

export interface MultipartBody {
  /** Text parts by name, in arrival order. */
  fields: Array<{ name: string; value: string }>;
  /** File parts in the order sent, whatever their field names. */
  files: UploadedFile[];
}

export async function readMultipart(ctx: Context, limits: MultipartLimits): Promise<MultipartBody> {
  const contentType = ctx.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw badRequest('요청 본문은 multipart/form-data 형식이어야 합니다.');
  }
  const stream = ctx.stream();
  return new Promise<MultipartBody>((resolve, reject) => {
    const body: MultipartBody = { fields: [], files: [] };
    let failed = false;
    let pendingFiles = 0;
    let finished = false;
    const fail = (error: HttpError) => {
      if (failed) return;
      failed = true;
      stream.unpipe();
      stream.resume(); // drain what is still arriving
      reject(error);
    };
    const settle = () => {
      if (!failed && finished && pendingFiles === 0) resolve(body);
    };

    let parser: InstanceType<typeof Busboy>;
    try {
      parser = new Busboy({
        headers: { 'content-type': contentType },
        // The `payload` part is read as text under the field limit however it is sent: a plain
        // field, or a part with `Content-Type: application/json` and a filename (as browsers send
        // a Blob and `curl -F "payload=@p.json;type=application/json"` does).
        isPartAFile: (fieldName, partType, fileName) => fieldName !== 'payload' && (partType === 'application/octet-stream' || fileName !== undefined),
        limits: { fileSize: limits.fileSize, files: limits.files, fieldSize: limits.fieldSize, fields: limits.fields, parts: limits.files + limits.fields, headerPairs: 20 },
      });
    } catch {
      throw badRequest('multipart 경계(boundary)가 올바르지 않습니다.');
    }
    parser.on('file', (fieldName, file, fileName, _encoding, mimeType) => {
      pendingFiles++;
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      file.on('limit', () => fail(payloadTooLarge(`파일 하나의 크기는 ${Math.floor(limits.fileSize / 1024 / 1024)}MB 이하여야 합니다.`)));
      // A truncated body errors the file stream: handled here or it would crash the process.
      file.on('error', () => fail(badRequest('multipart 본문이 손상되었습니다.')));
      file.on('end', () => {
        pendingFiles--;
        if (!failed) body.files.push({ fieldName, fileName: fileName ?? '', mimeType, bytes: Buffer.concat(chunks) });
        settle();
      });
    });
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) fail(payloadTooLarge('텍스트 항목이 너무 큽니다.'));
      else body.fields.push({ name, value });
    });
    parser.on('filesLimit', () => fail(payloadTooLarge(`파일은 최대 ${limits.files}개까지 올릴 수 있습니다.`)));
    parser.on('fieldsLimit', () => fail(badRequest('텍스트 항목이 너무 많습니다.')));
    parser.on('partsLimit', () => fail(payloadTooLarge('multipart 항목이 너무 많습니다.')));
    parser.on('error', () => fail(badRequest('multipart 본문이 올바르지 않습니다.')));
    parser.on('finish', () => {
      finished = true;
      settle();
    });
    stream.on('error', (error: Error) => fail(error instanceof HttpError ? error : badRequest('요청 본문을 읽지 못했습니다.')));
    stream.pipe(parser);
  });
}

/** The single `payload` part (a text field or a JSON part) as JSON (decisions.md, "Event uploads"). */
export function payloadOf(body: MultipartBody): unknown | undefined {
  const extra = body.fields.find((field) => field.name !== 'payload');
  if (extra) throw badRequest(`알 수 없는 텍스트 항목 '${extra.name.slice(0, 50)}'이(가) 있습니다. JSON은 'payload' 항목 하나로 보내 주세요.`);
  const payloads = body.fields.filter((field) => field.name === 'payload');
  if (payloads.length > 1) throw badRequest("'payload' 항목은 하나만 보낼 수 있습니다.");
  if (payloads.length === 0) return undefined;
  return parseJson(payloads[0]!.value, "'payload' 항목");
}

/** A JSON body carries no files: a megabyte is plenty. */
export const JSON_PAYLOAD_LIMIT = 1024 * 1024;

/**
 * The payload and the files of a route that takes either multipart/form-data (a `payload` part
 * and file parts) or the payload alone as a JSON body (no files); `raw` is undefined when no
 * payload was sent. Both forms are documented (schemas/openapi.ts, `multipart.json`).
 */
export async function readPayloadRequest(ctx: Context, limits: MultipartLimits): Promise<{ raw: unknown; body: MultipartBody }> {
  if (/^multipart\//i.test(ctx.header('content-type') ?? '')) {
    const body = await readMultipart(ctx, limits);
    return { raw: payloadOf(body), body };
  }
  if (Number(ctx.header('content-length') ?? 0) > JSON_PAYLOAD_LIMIT) throw payloadTooLarge();
  return { raw: await ctx.json(), body: { fields: [], files: [] } };
}
