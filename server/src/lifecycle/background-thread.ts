import os from 'node:os';

/** The nice value of Hearth's background threads: the history worker, the WAL checkpointer. */
export const BACKGROUND_NICE = 10;

/**
 * Called in a worker thread: lowers that thread's priority, so it yields the CPU to the server's
 * thread (the device stream) whenever both want it, and runs in the idle time otherwise. Linux
 * only, where a thread's nice value is its own; elsewhere it would change the whole process's.
 * Where it is refused (a sandbox), the thread keeps its priority.
 */
export function runInBackground(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(BACKGROUND_NICE);
  } catch {}
}
