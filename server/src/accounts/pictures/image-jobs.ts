import fastq from 'fastq';

/** At most this many images are decoded or drawn at once; the rest wait their turn. */
export const IMAGE_JOB_CONCURRENCY = 2;

/**
 * Of those, at most this many may be uploads, which can decode to 16 megapixels. A second one at
 * once took 25 MB more at its peak (glibc with one malloc arena, as npm start runs) and the second
 * core a small box has, which the device stream needs; an avatar (256 px) may still run beside one.
 */
export const LARGE_IMAGE_JOB_CONCURRENCY = 1;

type Job = () => Promise<unknown>;

/**
 * The queue every picture job goes through (re-encoding an upload, drawing an avatar), so that
 * however many arrive at once, only two images are in memory, at most one of them an upload
 * (fastq, Fastify's own work queue).
 */
export class ImageJobs {
  private readonly queue = fastq.promise((job: Job) => job(), IMAGE_JOB_CONCURRENCY);
  // A large job waits here first, then takes one of the two places like any other.
  private readonly large = fastq.promise((job: Job) => this.queue.push(job), LARGE_IMAGE_JOB_CONCURRENCY);

  run<T>(job: () => Promise<T>): Promise<T> {
    return this.queue.push(job) as Promise<T>;
  }

  /** A job that may hold a whole upload's pixels: one such at a time. */
  runLarge<T>(job: () => Promise<T>): Promise<T> {
    return this.large.push(job) as Promise<T>;
  }

  /** Jobs running now (for tests). */
  get running(): number {
    return this.queue.running();
  }
}
