/**
 * How long this process's work held the event loop: the CPU time it spent between two ticks of a
 * 5 ms timer, at worst. Unlike the wall time between ticks it leaves out the pauses of a busy
 * machine (other processes, other test files), which say nothing of the code under test.
 */
export function watchLoopHold(): { reset(): void; worst(): number; stop(): void } {
  let worst = 0;
  let last = process.cpuUsage();
  const ticker = setInterval(() => {
    const spent = process.cpuUsage(last);
    last = process.cpuUsage();
    worst = Math.max(worst, (spent.user + spent.system) / 1000);
  }, 5);
  return {
    reset() {
      worst = 0;
      last = process.cpuUsage();
    },
    worst: () => worst,
    stop: () => clearInterval(ticker),
  };
}

/** The CPU time, in ms, `work` took in this process. */
export function cpuTimeOf(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / 1000;
}
