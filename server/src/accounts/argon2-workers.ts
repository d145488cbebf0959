import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Options } from '@node-rs/argon2';

/**
 * The code each worker runs (CommonJS, evaluated, so the bundled server needs no extra file).
 * The worker lowers its own thread's priority: when cores are short, the event loop (and the
 * libuv pool behind WebCrypto and file I/O) go first, and hashing takes what is left.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2Path);
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.nice);
} catch {}
parentPort.on('message', (job) => {
  let result;
  try {
    result = job.op === 'hash' ? argon2.hashSync(job.password, job.options) : argon2.verifySync(job.hash, job.password);
  } catch (error) {
    result = job.op === 'hash' ? { error: String((error && error.message) || error) } : false;
  }
  parentPort.postMessage(result);
});
`;

type Job =
  | { op: 'hash'; password: string; options: Options }
  | { op: 'verify'; hash: string; password: string };

interface Pending {
  job: Job;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * Up to `size` worker threads computing argon2id, one job each at a time, the rest queued.
 * Workers start on demand and retire after `idleMs` without work: each holds about 11 MB, which
 * a small home box should not pay while nobody is signing in.
 */
export class Argon2Workers {
  private readonly idle: Worker[] = [];
  private readonly retireTimers = new Map<Worker, NodeJS.Timeout>();
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private closed = false;

  private readonly argon2Path = createRequire(import.meta.url).resolve('@node-rs/argon2');

  constructor(
    private readonly size: number,
    private readonly nice = 10,
    private readonly idleMs = 60_000,
  ) {}

  /** Running worker threads (for tests and diagnostics). */
  get threads(): number {
    return this.idle.length + this.busy.size;
  }

  hash(password: string, options: Options): Promise<string> {
    return this.run({ op: 'hash', password, options }).then((result) => {
      if (typeof result === 'string') return result;
      throw new Error(`argon2 hash failed: ${(result as { error?: string }).error}`);
    });
  }

  verify(hash: string, password: string): Promise<boolean> {
    return this.run({ op: 'verify', hash, password }).then((result) => result === true);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.retireTimers.values()) clearTimeout(timer);
    this.retireTimers.clear();
    for (const pending of this.queue.splice(0)) pending.reject(new Error('argon2 workers closed'));
    await Promise.all([...this.idle, ...this.busy.keys()].map((worker) => worker.terminate()));
  }

  private run(job: Job): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('argon2 workers closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch() {
    while (this.queue.length > 0) {
      if (this.idle.length === 0 && this.threads < this.size) this.spawn();
      const worker = this.idle.pop();
      if (!worker) return;
      clearTimeout(this.retireTimers.get(worker));
      this.retireTimers.delete(worker);
      const pending = this.queue.shift() as Pending;
      this.busy.set(worker, pending);
      worker.postMessage(pending.job);
    }
  }

  private done(worker: Worker, result: unknown) {
    const pending = this.busy.get(worker);
    this.busy.delete(worker);
    this.idle.push(worker);
    pending?.resolve(result);
    this.dispatch();
    if (this.idle.includes(worker) && !this.closed) {
      const timer = setTimeout(() => this.retire(worker), this.idleMs);
      timer.unref();
      this.retireTimers.set(worker, timer);
    }
  }

  private retire(worker: Worker) {
    this.retireTimers.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index < 0) return;
    this.idle.splice(index, 1);
    void worker.terminate();
  }

  private spawn() {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { argon2Path: this.argon2Path, nice: this.nice },
    });
    worker.unref();
    worker.on('message', (result: unknown) => this.done(worker, result));
    worker.on('error', () => {}); // followed by 'exit', handled there
    worker.on('exit', () => this.exited(worker));
    this.idle.push(worker);
  }

  /** A worker that ended fails its job; unless closing, a new one takes its place. */
  private exited(worker: Worker) {
    this.busy.get(worker)?.reject(new Error('argon2 worker exited'));
    this.busy.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    clearTimeout(this.retireTimers.get(worker));
    this.retireTimers.delete(worker);
    // dispatch() starts a replacement if work is waiting.
    if (!this.closed) this.dispatch();
  }
}
