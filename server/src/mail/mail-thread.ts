import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SendMailOptions } from 'nodemailer';
import { BACKGROUND_NICE } from '../lifecycle/background-thread.js';

/**
 * Composes and sends mail on a thread of its own. nodemailer builds each message's MIME parts, and
 * an SMTP transport its TLS session, in JavaScript: 4–7 ms of CPU a message, in pieces of up to
 * 7 ms, which held the device stream's messages back whenever a critical alert mailed the
 * household (docs/alerts.md#performance). The thread starts with the first message and ends after
 * `idleMs` without one (a thread weighs about 10 MB); what it answers is the composed message.
 */

// CommonJS, evaluated in the worker: nodemailer comes by its resolved path (the server is bundled).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (process.platform === 'linux') {
  try {
    require('node:os').setPriority(workerData.nice);
  } catch {}
}
const nodemailer = require(workerData.nodemailer);
const transport = workerData.smtpUrl
  ? nodemailer.createTransport(workerData.smtpUrl)
  : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
let sending = 0;
let closing = false;
const end = () => {
  transport.close();
  parentPort.close();
};
parentPort.on('message', async (job) => {
  if (job === 'close') {
    closing = true;
    if (sending === 0) end();
    return;
  }
  sending++;
  try {
    const info = await transport.sendMail(job.mail);
    const message = Buffer.isBuffer(info.message) ? info.message : undefined;
    parentPort.postMessage({ id: job.id, message });
  } catch (error) {
    const failure = { message: String(error && error.message ? error.message : error) };
    for (const key of ['code', 'command', 'responseCode', 'response'])
      if (error && error[key] !== undefined) failure[key] = error[key];
    parentPort.postMessage({ id: job.id, error: failure });
  } finally {
    sending--;
    if (closing && sending === 0) end();
  }
});
`;

interface Answer {
  id: number;
  /** The composed message (the outbox's transport answers it). */
  message?: Uint8Array;
  error?: { message: string } & Record<string, unknown>;
}

export class MailThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { worker: Worker; resolve(message?: Buffer): void; reject(error: Error): void }
  >();
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly nodemailer = createRequire(import.meta.url).resolve('nodemailer');

  constructor(
    private readonly smtpUrl: string | undefined,
    private readonly idleMs = 30_000,
  ) {}

  /** Sends one message; resolves with it as composed (an outbox's), rejects with the transport's error. */
  send(mail: SendMailOptions): Promise<Buffer | undefined> {
    const worker = this.started();
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { worker, resolve, reject });
      worker.postMessage({ id, mail });
    });
  }

  /** Whether a thread is running now (tests). */
  running(): boolean {
    return this.worker !== undefined;
  }

  /** Lets the thread finish what it sends, then end (what is under way is not cut off). */
  close() {
    clearTimeout(this.idleTimer);
    this.worker?.postMessage('close');
    this.worker = undefined;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { nodemailer: this.nodemailer, smtpUrl: this.smtpUrl, nice: BACKGROUND_NICE },
    });
    worker.unref();
    worker.on('message', (answer: Answer) => this.answered(answer));
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.fail(worker, new Error('the mail thread ended'));
    });
    this.worker = worker;
    return worker;
  }

  private answered(answer: Answer) {
    const waiting = this.waiting.get(answer.id);
    this.waiting.delete(answer.id);
    if (waiting) {
      if (answer.error) waiting.reject(Object.assign(new Error(answer.error.message), answer.error));
      else waiting.resolve(answer.message ? Buffer.from(answer.message) : undefined);
    }
    if (this.waiting.size === 0 && this.worker) {
      this.idleTimer = setTimeout(() => this.close(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  /** What a thread that failed or ended still owed fails. */
  private fail(worker: Worker, error: Error) {
    for (const [id, waiting] of this.waiting) {
      if (waiting.worker !== worker) continue;
      this.waiting.delete(id);
      waiting.reject(error);
    }
  }
}
