// Writes src/openapi.ts, the SDK's types, from the OpenAPI document a running server serves:
//   npm run generate -w sdk -- http://127.0.0.1:3000
// The SDK test regenerates from the code under test and fails when the committed file differs.
import { writeFile } from 'node:fs/promises';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

export const TYPES_FILE = new URL('../src/openapi.ts', import.meta.url);

const HEADER = `// Generated from the server's /api/openapi.json by \`npm run generate -w sdk\` (openapi-typescript).
// Do not edit: the SDK test fails when this file and the document differ.
`;

/** A file part (`format: binary`) is a Blob, so a multipart body is built without casts (openapi-typescript's documented transform). */
export const binaryAsBlob = (schema: { format?: string }) => (schema.format === 'binary' ? ts.factory.createTypeReferenceNode('Blob') : undefined);

/** The TypeScript source of the document's types, exactly as committed. */
export async function typesOf(document: unknown): Promise<string> {
  return HEADER + astToString(await openapiTS(document as never, { transform: binaryAsBlob }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = process.argv[2];
  if (!base) throw new Error('usage: generate.ts <server base URL>');
  const response = await fetch(new URL('/api/openapi.json', base));
  if (!response.ok) throw new Error(`GET /api/openapi.json: ${response.status}`);
  await writeFile(TYPES_FILE, await typesOf(await response.json()));
  console.log(`wrote ${TYPES_FILE.pathname}`);
}
