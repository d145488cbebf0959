// A Web Push service of one's own for tests and benchmarks (docs/alerts.md#tests): HTTPS on
// 127.0.0.1 with its own certificate (trust it with NODE_EXTRA_CA_CERTS=<push.certFile>), endpoints
// per subscriber, each message recorded with its headers; `decrypt` opens one as the browser would
// (RFC 8291 aes128gcm, through http_ece) and `vapid` checks its VAPID token (RFC 8292).
import { execFileSync } from 'node:child_process';
import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import ece from 'http_ece';

/** A self-signed certificate for 127.0.0.1, made with openssl. */
function certificate(dir) {
  const key = path.join(dir, 'push.key');
  const cert = path.join(dir, 'push.crt');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { key, cert };
}

const b64 = (buffer) => Buffer.from(buffer).toString('base64url');

/** Starts the push service; resolves with its handle. */
export async function startPushService() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-push-'));
  const files = certificate(dir);
  const received = [];
  const subscribers = new Map();
  const waiters = new Set();
  const server = https.createServer(
    { key: fs.readFileSync(files.key), cert: fs.readFileSync(files.cert) },
    (request, response) => {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        const id = decodeURIComponent((request.url ?? '').replace(/^\/push\//, ''));
        const message = {
          id,
          at: Date.now(),
          method: request.method,
          headers: request.headers,
          body: Buffer.concat(chunks),
        };
        received.push(message);
        const status = subscribers.get(id)?.status ?? 404;
        response.writeHead(status, { location: `/message/${received.length}` }).end();
        for (const waiter of waiters) waiter();
      });
    },
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${server.address().port}`;

  return {
    origin,
    certFile: files.cert,
    received,
    /** A browser's subscription to this service: what POST /api/push/subscriptions takes. */
    subscribe(id, status = 201) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subscribers.set(id, { ecdh, auth, status });
      return {
        endpoint: `${origin}/push/${encodeURIComponent(id)}`,
        keys: { p256dh: b64(ecdh.getPublicKey()), auth: b64(auth) },
      };
    },
    /** What the service answers `id` from now on (410: the subscription is gone). */
    answer(id, status) {
      const subscriber = subscribers.get(id);
      if (subscriber) subscriber.status = status;
    },
    to(id) {
      return received.filter((message) => message.id === id);
    },
    /** Resolves once `check(received)` holds; rejects after `timeoutMs`. */
    until(check, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const done = () => {
          if (!check(received)) return;
          clearTimeout(timer);
          waiters.delete(done);
          resolve(received);
        };
        const timer = setTimeout(() => {
          waiters.delete(done);
          reject(
            new Error(`push service: condition not met within ${timeoutMs} ms (${received.length} received)`),
          );
        }, timeoutMs);
        waiters.add(done);
        done();
      });
    },
    /** The message as the browser reads it: decrypted with the subscriber's keys, parsed as JSON. */
    decrypt(message) {
      const subscriber = subscribers.get(message.id);
      if (!subscriber) throw new Error(`no subscriber ${message.id}`);
      const plain = ece.decrypt(message.body, {
        version: 'aes128gcm',
        privateKey: subscriber.ecdh,
        authSecret: b64(subscriber.auth),
      });
      return JSON.parse(plain.toString('utf8'));
    },
    /** The VAPID token's claims, after checking its ES256 signature with the key it names. */
    vapid(message) {
      const header = String(message.headers.authorization ?? '');
      const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
      if (!match) throw new Error(`not a VAPID authorization: ${header}`);
      const [, token, k] = match;
      const [head, claims, signature] = token.split('.');
      const raw = Buffer.from(k, 'base64url');
      const key = createPublicKey({
        key: { kty: 'EC', crv: 'P-256', x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33, 65)) },
        format: 'jwk',
      });
      const valid = verify(
        'sha256',
        Buffer.from(`${head}.${claims}`),
        { key, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
      if (!valid) throw new Error('the VAPID signature does not verify');
      return {
        header: JSON.parse(Buffer.from(head, 'base64url').toString()),
        claims: JSON.parse(Buffer.from(claims, 'base64url').toString()),
        key: k,
      };
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
