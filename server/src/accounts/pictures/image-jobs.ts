import fastq from 'fastq';

/**
 * Images are decoded or drawn one at a time; the rest wait their turn. A second one at once took
 * 25 MB more at its peak (a 16-megapixel photo, glibc with one malloc arena, as npm start runs)
 * and the second core a small box has, which the device stream needs; pictures change rarely.
 */
export const IMAGE_JOB_CONCURRENCY = 1;

/**
 * The queue every picture job goes through (re-encoding an upload, drawing an avatar), so that
 * however many arrive at once, only one image is in memory (fastq, Fastify's own work queue).
 */
export class ImageJobs {
  private readonly queue = fastq.promise((job: () => Promise<unknown>) => job(), IMAGE_JOB_CONCURRENCY);

  run<T>(job: () => Promise<T>): Promise<T> {
    return this.queue.push(job) as Promise<T>;
  }

  /** Jobs running now (for tests). */
  get running(): number {
    return this.queue.running();
  }
}
