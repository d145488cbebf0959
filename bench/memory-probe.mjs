// Preloaded into Hearth by bench/memory.mjs (NODE_OPTIONS=--import=…): on SIGUSR2 writes where the
// process's memory goes to MEMORY_PROBE_OUT as JSON. V8's heap by space, memory outside it
// (external, array buffers, V8's own malloc), and the resident set split by mapping from
// /proc/self/smaps: the node binary's pages, malloc's heap, anonymous memory (V8's heap, malloc
// arenas, stacks) and native modules. With MEMORY_PROBE_SNAPSHOT=1 it also writes a heap snapshot;
// with MEMORY_PROBE_ALLOCATIONS=1 it samples every allocation since the start, garbage included,
// and lists the functions that allocated the most.
import fs from 'node:fs';
import inspector from 'node:inspector';
import v8 from 'node:v8';
import vm from 'node:vm';

const out = process.env.MEMORY_PROBE_OUT;
const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;

/** The resident set per kind of mapping, in MB (Linux). */
function residentByMapping() {
  const text = fs.readFileSync('/proc/self/smaps', 'utf8');
  const kinds = {};
  let kind = 'anonymous';
  for (const line of text.split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const file = header[1];
      if (file === '') kind = 'anonymous (V8 heap, malloc arenas, stacks)';
      else if (file === '[heap]') kind = 'malloc main heap ([heap])';
      else if (file.startsWith('[')) kind = file;
      else if (file.endsWith('/node') || /\/node$/.test(file)) kind = 'node binary';
      else if (file.endsWith('.node')) kind = `native module ${file.split('/').slice(-1)[0]}`;
      else if (/\.so(\.|$)/.test(file)) kind = 'shared libraries';
      else kind = 'other files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds[kind] = (kinds[kind] ?? 0) + Number(rss[1]) * 1024;
  }
  return Object.fromEntries(
    Object.entries(kinds)
      .filter(([, bytes]) => bytes >= 102400)
      .sort((a, b) => b[1] - a[1])
      .map(([name, bytes]) => [name, mb(bytes)]),
  );
}

/** The largest anonymous mappings (MEMORY_PROBE_MAPPINGS=1): size and resident, in MB. */
function largestAnonymous() {
  const text = fs.readFileSync('/proc/self/smaps', 'utf8');
  const found = [];
  let current;
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      current =
        header[4] === '' || header[4] === '[heap]'
          ? { at: header[1], perms: header[3], name: header[4], size: 0, rss: 0 }
          : undefined;
      if (current) found.push(current);
      continue;
    }
    const size = /^Size:\s+(\d+) kB/.exec(line);
    if (size && current) current.size = Number(size[1]) * 1024;
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rss = Number(rss[1]) * 1024;
  }
  return found
    .filter((mapping) => mapping.rss >= 1048576)
    .sort((a, b) => b.rss - a.rss)
    .map((m) => `${m.at} ${m.perms} ${m.name} size ${mb(m.size)} rss ${mb(m.rss)}`);
}

function breakdown() {
  const usage = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return {
    rss: mb(usage.rss),
    rssAnon: mb(field('RssAnon')),
    rssFile: mb(field('RssFile')),
    v8: {
      heapTotal: mb(usage.heapTotal),
      heapUsed: mb(usage.heapUsed),
      physical: mb(heap.total_physical_size),
      external: mb(usage.external),
      arrayBuffers: mb(usage.arrayBuffers),
      malloced: mb(heap.malloced_memory),
      peakMalloced: mb(heap.peak_malloced_memory),
    },
    spaces: Object.fromEntries(
      v8
        .getHeapSpaceStatistics()
        .map((space) => [
          space.space_name,
          `${mb(space.space_used_size)} used / ${mb(space.physical_space_size)} physical`,
        ]),
    ),
    mappings: residentByMapping(),
    ...(process.env.MEMORY_PROBE_MAPPINGS === '1' ? { largestAnonymous: largestAnonymous() } : {}),
  };
}

/** The sampling heap profiler, garbage included: what each function allocated since the start. */
function startAllocationSampling() {
  const session = new inspector.Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return () =>
    new Promise((resolve, reject) =>
      session.post('HeapProfiler.stopSampling', (error, { profile } = {}) => {
        if (error) return reject(error);
        const byFunction = new Map();
        const walk = (node) => {
          const { functionName, url, lineNumber } = node.callFrame;
          const where = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
          byFunction.set(where, (byFunction.get(where) ?? 0) + node.selfSize);
          for (const child of node.children) walk(child);
        };
        walk(profile.head);
        resolve(
          Object.fromEntries(
            [...byFunction]
              .sort((a, b) => b[1] - a[1])
              .slice(0, 40)
              .map(([where, bytes]) => [where, mb(bytes)]),
          ),
        );
      }),
    );
}

if (out) {
  const allocations = process.env.MEMORY_PROBE_ALLOCATIONS === '1' ? startAllocationSampling() : undefined;
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  process.on('SIGUSR2', () => {
    const before = breakdown();
    gc();
    // V8 hands freed pages back from a background thread: give it a moment.
    setTimeout(() => done(before), 2000);
  });
  const done = async (before) => {
    const afterGc = breakdown();
    let snapshot;
    if (process.env.MEMORY_PROBE_SNAPSHOT === '1') snapshot = v8.writeHeapSnapshot(`${out}.heapsnapshot`);
    const allocated = await allocations?.();
    fs.writeFileSync(`${out}.tmp`, JSON.stringify({ before, afterGc, snapshot, allocated }, null, 2));
    fs.renameSync(`${out}.tmp`, out);
  };
}
