// Worker of machineGaps (lib.mjs): spins for `ms` reading the clock; a jump of more than 0.2 ms
// between two readings is time this thread did not run (another thread, the kernel, or the host
// running something else on this virtual CPU).
import { parentPort, workerData } from 'node:worker_threads';

const end = performance.now() + workerData.ms;
let last = performance.now();
let lost = 0;
let gaps = 0;
let max = 0;
while (last < end) {
  const now = performance.now();
  const gap = now - last;
  if (gap > 0.2) lost += gap;
  if (gap > 2) gaps++;
  if (gap > max) max = gap;
  last = now;
}
parentPort.postMessage({ lost, gaps, max });
