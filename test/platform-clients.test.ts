// The Kafka and OpenSearch clients with the credentials a platform team gives them. No
// broker or cluster runs here, so each side is a local server speaking enough of the wire format to
// see what the client sends: a TLS listener that reads Kafka requests (ApiVersions, then the SASL
// handshake naming the mechanism), and an HTTP server in OpenSearch's place reading the
// Authorization header. The configuration's refusals are checked through loadConfig.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { KafkaBus } from '../shared/bus/kafka-bus.ts';
import { createSearchIndex } from '../shared/search/create-search-index.ts';
import { ConfigError, loadConfig } from '../shared/runtime/config.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import type { Db } from '../shared/db/database.ts';

const logger = createLogger('silent');

/** A self-signed CA certificate for 127.0.0.1 (openssl), and one more that signed nothing here. */
function certificates(): { dir: string; key: string; cert: string; caFile: string; otherCaFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'schedule-tls-'));
  for (const name of ['server', 'other']) {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, `${name}.key`), '-out', join(dir, `${name}.crt`),
      '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  }
  return { dir, key: readFileSync(join(dir, 'server.key'), 'utf8'), cert: readFileSync(join(dir, 'server.crt'), 'utf8'), caFile: join(dir, 'server.crt'), otherCaFile: join(dir, 'other.crt') };
}

interface SeenRequest {
  apiKey: number;
  apiVersion: number;
  clientId: string;
  /** SaslHandshake (api key 17): the mechanism the client asks for. */
  mechanism?: string;
}

/**
 * A TLS listener in a Kafka broker's place: answers ApiVersions (advertising the SASL handshake), reads
 * the SaslHandshake request, then hangs up. Records every request and whether a handshake completed.
 */
async function fakeBroker(tls: { key: string; cert: string }) {
  const seen: SeenRequest[] = [];
  const tlsErrors: string[] = [];
  let secured = 0;
  const server = createTlsServer({ key: tls.key, cert: tls.cert }, (socket: TLSSocket) => {
    secured++;
    let buffer = Buffer.alloc(0);
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 4 && buffer.length >= 4 + buffer.readInt32BE(0)) {
        const frame = buffer.subarray(4, 4 + buffer.readInt32BE(0));
        buffer = buffer.subarray(4 + frame.length);
        const apiKey = frame.readInt16BE(0);
        const apiVersion = frame.readInt16BE(2);
        const correlationId = frame.readInt32BE(4);
        const clientIdLength = frame.readInt16BE(8);
        const clientId = frame.subarray(10, 10 + Math.max(0, clientIdLength)).toString();
        const body = frame.subarray(10 + Math.max(0, clientIdLength));
        const request: SeenRequest = { apiKey, apiVersion, clientId };
        seen.push(request);
        if (apiKey === 18) {
          // ApiVersions v0-v2 response: error 0, [ApiVersions 0-2, SaslHandshake 0-1, SaslAuthenticate 0-1, Metadata 0-6], throttle 0.
          const apis = [[18, 0, 2], [17, 0, 1], [36, 0, 1], [3, 0, 6]];
          const payload = Buffer.alloc(4 + 2 + 4 + apis.length * 6 + (apiVersion >= 1 ? 4 : 0));
          let at = payload.writeInt32BE(correlationId, 0);
          at = payload.writeInt16BE(0, at);
          at = payload.writeInt32BE(apis.length, at);
          for (const [key, min, max] of apis) at = payload.writeInt16BE(max!, payload.writeInt16BE(min!, payload.writeInt16BE(key!, at)));
          if (apiVersion >= 1) payload.writeInt32BE(0, at);
          const size = Buffer.alloc(4);
          size.writeInt32BE(payload.length, 0);
          socket.write(Buffer.concat([size, payload]));
        } else if (apiKey === 17) {
          request.mechanism = body.subarray(2, 2 + body.readInt16BE(0)).toString();
          socket.destroy();
        } else {
          socket.destroy();
        }
      }
    });
  });
  server.on('tlsClientError', (error) => tlsErrors.push(error.message));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { seen, tlsErrors, secured: () => secured, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test.serial('Kafka: with KAFKA_SSL_CA_FILE and KAFKA_SASL_* the client speaks TLS trusting that CA and asks for SCRAM-SHA-512', async (t) => {
  const certs = certificates();
  const broker = await fakeBroker(certs);
  try {
    const config = loadConfig({
      KAFKA_BROKERS: `127.0.0.1:${broker.port}`, KAFKA_SSL_CA_FILE: certs.caFile,
      KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'schedule-edge', KAFKA_SASL_PASSWORD: 'pw',
    });
    t.deepEqual(config.kafkaSecurity.tls, { caFile: certs.caFile });
    await t.throwsAsync(KafkaBus.connect({ brokers: config.kafkaBrokers!, logger, clientId: 'platform-test', security: config.kafkaSecurity, connectTimeoutMs: 4_000 }));
    t.true(broker.secured() > 0, `a TLS session was established (${broker.tlsErrors.join('; ')})`);
    t.is(broker.seen[0]?.apiKey, 18, 'the first request inside TLS is ApiVersions');
    const handshake = broker.seen.find((r) => r.apiKey === 17);
    t.is(handshake?.mechanism, 'SCRAM-SHA-512', 'the SASL handshake asks for SCRAM-SHA-512');
    t.is(handshake?.clientId, 'platform-test');
  } finally {
    await broker.close();
    rmSync(certs.dir, { recursive: true, force: true });
  }
});

test.serial('Kafka: a broker certificate the configured CA did not sign is refused before any request', async (t) => {
  const certs = certificates();
  const broker = await fakeBroker(certs);
  try {
    const config = loadConfig({ KAFKA_BROKERS: `127.0.0.1:${broker.port}`, KAFKA_SSL_CA_FILE: certs.otherCaFile, KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' });
    await t.throwsAsync(KafkaBus.connect({ brokers: config.kafkaBrokers!, logger, clientId: 'platform-test', security: config.kafkaSecurity, connectTimeoutMs: 3_000 }));
    t.deepEqual(broker.seen, [], 'no Kafka request left the client');
  } finally {
    await broker.close();
    rmSync(certs.dir, { recursive: true, force: true });
  }
});

test('Kafka: an unreadable KAFKA_SSL_CA_FILE stops the connect with one line naming the variable', async (t) => {
  const config = loadConfig({ KAFKA_BROKERS: '127.0.0.1:9', KAFKA_SSL_CA_FILE: '/nonexistent/ca.crt' });
  const error = await t.throwsAsync(KafkaBus.connect({ brokers: config.kafkaBrokers!, logger, clientId: 'platform-test', security: config.kafkaSecurity, connectTimeoutMs: 1_000 }));
  t.true(error instanceof ConfigError);
  t.regex(error!.message, /^KAFKA_SSL_CA_FILE: cannot read \/nonexistent\/ca\.crt/);
});

test('Kafka and OpenSearch settings: what the configuration refuses, with the variable named', (t) => {
  const refused = (env: Record<string, string>, variable: string) => {
    const error = t.throws(() => loadConfig(env), { instanceOf: ConfigError }, JSON.stringify(env));
    t.is((error as ConfigError | undefined)?.variable, variable, JSON.stringify(env));
  };
  const kafka = { KAFKA_BROKERS: 'kafka:9093' };
  refused({ ...kafka, KAFKA_SASL_USERNAME: 'u' }, 'KAFKA_SASL_PASSWORD');
  refused({ ...kafka, KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p', KAFKA_SASL_MECHANISM: 'gssapi' }, 'KAFKA_SASL_MECHANISM');
  refused({ ...kafka, KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p', KAFKA_SASL_MECHANISM: 'plain' }, 'KAFKA_SASL_MECHANISM');
  refused({ ...kafka, KAFKA_SSL: 'yes' }, 'KAFKA_SSL');
  refused({ ...kafka, KAFKA_SSL: 'false', KAFKA_SSL_CA_FILE: '/ca.crt' }, 'KAFKA_SSL_CA_FILE');
  refused({ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }, 'KAFKA_BROKERS');
  refused({ OPENSEARCH_URL: 'https://search:9200', OPENSEARCH_USERNAME: 'u' }, 'OPENSEARCH_PASSWORD');
  refused({ OPENSEARCH_USERNAME: 'u', OPENSEARCH_PASSWORD: 'p' }, 'OPENSEARCH_URL');
  refused({ OPENSEARCH_URL: 'https://a:b@search:9200', OPENSEARCH_USERNAME: 'u', OPENSEARCH_PASSWORD: 'p' }, 'OPENSEARCH_URL');
  // Accepted: plain inside TLS; no settings at all (plaintext, no authentication: the embedded default).
  t.is(loadConfig({ ...kafka, KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'PLAIN', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }).kafkaSecurity.sasl?.mechanism, 'plain');
  t.deepEqual(loadConfig({}).kafkaSecurity, { tls: null, sasl: null });
  t.is(loadConfig({}).opensearchAuth, null);
});

test('OpenSearch: OPENSEARCH_USERNAME/OPENSEARCH_PASSWORD go out as HTTP basic authentication, the URL carries none', async (t) => {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server = createHttpServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'security_exception', reason: 'test' }, status: 401 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = loadConfig({ OPENSEARCH_URL: url, OPENSEARCH_USERNAME: 'schedule-app', OPENSEARCH_PASSWORD: 'pa:ss 비밀' });
    t.is(config.opensearchUrl, url);
    // The client's first call fails with the 401 before the database is ever asked.
    const db = {} as Db;
    await t.throwsAsync(createSearchIndex({ db, opensearchUrl: config.opensearchUrl, opensearchAuth: config.opensearchAuth, logger, userDictionary: async () => '' }));
    t.true(seen.length > 0, 'the client called the server');
    for (const request of seen) {
      t.is(request.headers.authorization, `Basic ${Buffer.from('schedule-app:pa:ss 비밀').toString('base64')}`, request.url);
      t.false(request.url.includes('schedule-app'), 'no credentials in the request line');
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
