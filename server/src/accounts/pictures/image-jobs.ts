import fastq from 'fastq';

/** At most this many images are decoded or drawn at once; the rest wait their turn. */
export const IMAGE_JOB_CONCURRENCY = 2;

/**
 * The queue every picture job goes through (re-encoding an upload, drawing an avatar), so that
 * however many arrive at once, only two images are in memory (fastq, Fastify's own work queue).
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
