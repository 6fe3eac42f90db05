/**
 * Issue 29, A7b: a body over its route's limit, sent by an ordinary client, reads the 413 `{code,
 * message}` and not a connection reset: the connection closes in stages (lingering-close.ts).
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { seedExample, tokenFor } from '../test/seed';
import { installLingeringClose } from './lingering-close';

const FIVE_MB = 5 * 1024 * 1024;

/**
 * A client that goes on sending its body after the answer, as a browser does, and tells what it saw:
 * the answer, and whether a write or the socket failed (a reset) before it finished and closed.
 */
async function sendOnAfterAnswer(
  port: number,
  head: string,
  bodyBytes: number,
  pauseMs = 2,
): Promise<{ answer: string; failures: string[]; sent: number }> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let answer = '';
  const failures: string[] = [];
  socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
  socket.on('error', (e) => failures.push(`socket ${(e as NodeJS.ErrnoException).code}`));
  const closed = new Promise<void>((r) => socket.on('close', () => r()));
  socket.write(head);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  while (sent < bodyBytes && !socket.destroyed && failures.length === 0) {
    await new Promise<void>((r) =>
      socket.write(chunk, (e) => {
        if (e) failures.push(`write ${(e as NodeJS.ErrnoException).code}`);
        r();
      }),
    );
    sent += chunk.length;
    if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
  }
  socket.end();
  await closed;
  return { answer, failures, sent };
}

describe('a body over the limit from an ordinary client reads the 413', () => {
  let t: TestApp;
  let base: string;
  let port: number;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { MAX_UPLOAD_MB: '1' } });
    await seedExample(t);
    token = await tokenFor(t, 'mario.rossi');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => t.close());

  it("Node's fetch sending 5 MB to a JSON route", async () => {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'x'.repeat(FIVE_MB), password: 'y' }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      code: 'payload_too_large',
      message: 'The request or file is too large',
    });
  });

  it("Node's fetch streaming 5 MB to a JSON route, slower than the answer", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent >= FIVE_MB) return c.close();
        if (sent === 0) c.enqueue(new TextEncoder().encode('{"userName":"'));
        await new Promise((r) => setTimeout(r, 2));
        sent += chunk.length;
        c.enqueue(chunk);
      },
    });
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it("Node's fetch sending a 5 MB file to an upload route", async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(FIVE_MB)]), 'big.bin');
    const res = await fetch(`${base}/api/acme/101/documents/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large', message: expect.any(String) });
  });

  it('a client still sending after the 413 is read to its end and closed, not reset', async () => {
    const r = await sendOnAfterAnswer(
      port,
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${FIVE_MB}\r\n\r\n`,
      FIVE_MB,
    );
    expect(r.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(r.answer).toContain('"code":"payload_too_large"');
    expect(r.failures).toEqual([]);
    expect(r.sent).toBeGreaterThanOrEqual(FIVE_MB);
  });
});

describe('the lingering is bounded', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // Answers before reading, as a refused body does.
    server = createServer((_req, res) => {
      res.writeHead(413, { connection: 'close', 'content-type': 'application/json' });
      res.end('{"code":"payload_too_large","message":"too large"}');
    });
    installLingeringClose(server, { maxMs: 1_000, idleMs: 300, maxBytes: 1024 * 1024 });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const head = (n: number) => `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${n}\r\n\r\n`;

  it('by size: a client sending far more than the bound is cut', async () => {
    const r = await sendOnAfterAnswer(port, head(64 * FIVE_MB), 64 * FIVE_MB, 0);
    expect(r.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(r.failures.length).toBeGreaterThan(0);
    expect(r.sent).toBeLessThan(64 * FIVE_MB);
  });

  it('by time: a client sending slowly is cut at the deadline', async () => {
    const started = Date.now();
    const r = await sendOnAfterAnswer(port, head(FIVE_MB), FIVE_MB / 4, 150);
    expect(r.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(r.failures.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('by silence: a client that stops sending is closed after the idle bound', async () => {
    // Seen from the server: the client, half-open, learns of it only when it next writes.
    const started = Date.now();
    const closedAfter = new Promise<number>((r) =>
      server.once('connection', (s: Socket) => s.on('close', () => r(Date.now() - started))),
    );
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => undefined);
    socket.write(head(FIVE_MB) + 'abc');
    const ms = await closedAfter;
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(900);
    socket.destroy();
  });
});
