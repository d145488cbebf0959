import './app/global.css';
import { startBootRequests } from './app/boot-requests.js';

/** Lets the browser run other work (paint, input) before the next step. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The longest the boot waits for the session's requests to be sent before evaluating React. */
const BOOT_REQUESTS_WAIT_MS = 250;

/**
 * Boots in steps so no single task runs long (bench/web.bench.mjs: no task over 50 ms while
 * home settles): evaluating React, then the app's modules, then the first render each get a
 * task of their own.
 */
async function boot() {
  const requestsSent = startBootRequests(window.location);
  const root = document.getElementById('root');
  if (!root) return;
  // Evaluating React and the app takes the main thread for a while (100–300 ms on a small box):
  // the refresh's answer would wait behind it, and so would the profile and the page's requests
  // it starts. Sent first, the server answers them while React evaluates.
  await Promise.race([requestsSent, new Promise((resolve) => setTimeout(resolve, BOOT_REQUESTS_WAIT_MS))]);
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
