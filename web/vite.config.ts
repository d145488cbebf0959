import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the Vite server proxies the API and the device stream to the Hearth server.
const target = process.env.HEARTH_DEV_SERVER ?? 'http://localhost:8080';

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

const WEB = fileURLToPath(new URL('.', import.meta.url));
const ENTRY = fileURLToPath(new URL('index.html', import.meta.url));
const APP = fileURLToPath(new URL('src/app/App.tsx', import.meta.url));

/**
 * The app's modules `from` imports, and theirs, statically (what loads whenever it loads).
 * Packages are left out: a barrel such as lucide-react's or @hearth/contracts' names everything
 * any page uses.
 */
function staticClosure(graph: ModuleGraph, from: string): Set<string> {
  const seen = new Set<string>();
  const queue = [from];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    const ours = (id.startsWith(WEB) && !id.includes('/node_modules/')) || id.startsWith('\0vite/');
    if (seen.has(id) || !ours) continue;
    seen.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

let shell: { graph: ModuleGraph; boot: Set<string>; app: Set<string> } | undefined;

/**
 * What every visit loads, as two files: the boot (main.tsx and all it imports statically) and the
 * app shell (App.tsx and all it imports statically, less the boot). Left to itself the bundler
 * splits the parts the shell shares with pages into a dozen small files, each compressed on its
 * own (bench/web.bench.mjs: 4 KB more).
 */
function shellOf(graph: ModuleGraph) {
  if (shell?.graph !== graph) {
    const boot = staticClosure(graph, ENTRY);
    const app = staticClosure(graph, APP);
    for (const id of boot) app.delete(id);
    shell = { graph, boot, app };
  }
  return shell;
}

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      // The entry exports nothing: its chunk may be the boot's group chunk (no facade file).
      preserveEntrySignatures: false,
      output: {
        // Separate files compile in parallel and off the main thread, and the vendor ones stay
        // cached across releases of the app code.
        advancedChunks: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 4 },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/, priority: 3 },
            { name: (id, graph) => (shellOf(graph).boot.has(id) ? 'index' : null), priority: 2 },
            { name: (id, graph) => (shellOf(graph).app.has(id) ? 'App' : null), priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target, changeOrigin: false },
      '/healthz': { target },
      '/ws': { target: target.replace(/^http/, 'ws'), ws: true },
    },
  },
});
