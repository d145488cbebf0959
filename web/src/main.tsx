import './app/global.css';
import { startBootRequests } from './app/boot-requests.js';

/** Lets the browser run other work (paint, input) before the next step. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Boots in steps so no single task runs long (bench/web.bench.mjs: no task over 50 ms while
 * home settles): evaluating React, then the app's modules, then the first render each get a
 * task of their own.
 */
async function boot() {
  startBootRequests(window.location);
  const root = document.getElementById('root');
  if (!root) return;
  const [{ createRoot }, { StrictMode, startTransition }] = await Promise.all([
    import('react-dom/client'),
    import('react'),
  ]);
  await nextTask();
  const { App } = await import('./app/App.js');
  await nextTask();
  // A transition lets React yield between components: the first render is many short tasks.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}

void boot();
