// The AsyncAPI document as the live test clients' judge: every message a test client receives, over
// either transport, is validated against the message schema the document gives for its type. A
// message the document does not describe fails the test run at once (an uncaught error names it):
// the stream's contract holds by construction for every message the suite's runs see.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { buildAsyncApi } from '../../schemas/asyncapi.ts';

type Json = Record<string, any>;

const document = buildAsyncApi({ version: 'test', baseUrl: 'http://localhost', limits: { maxMonths: 24, heartbeatSeconds: 25 } }) as Json;
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormatsPlugin as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema(document.components.schemas.ScheduleItem, 'ScheduleItem');

/** `#/components/schemas/X` → the schema registered as X. */
const resolved = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema), (key, value: unknown) => (key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', '') : value));

/** Message type (`schedule.created`, `subscribed`, …) → the validator of its payload. */
const validators = new Map<string, ValidateFunction>();
for (const message of Object.values(document.components.messages as Record<string, Json>)) {
  const type = message.payload.properties.type.const as string;
  validators.set(type, ajv.compile(resolved(message.payload) as Json));
}

/** Messages validated so far in this process (a test can show the judge ran). */
export let validatedMessages = 0;

/** Throws naming the message and the schema's complaint unless the AsyncAPI document describes it. */
export function assertDescribed(message: unknown, transport: 'websocket' | 'sse', eventName?: string): void {
  const type = (message as Json | null)?.type;
  const validate = typeof type === 'string' ? validators.get(type) : undefined;
  if (!validate) throw new Error(`live contract: ${transport} message of a type the AsyncAPI document does not describe: ${JSON.stringify(message)}`);
  if (!validate(message)) throw new Error(`live contract: ${transport} ${type} message does not match the AsyncAPI schema (${ajv.errorsText(validate.errors)}): ${JSON.stringify(message)}`);
  if (eventName !== undefined && eventName !== type) throw new Error(`live contract: SSE event '${eventName}' carries a '${type}' message`);
  validatedMessages++;
}
