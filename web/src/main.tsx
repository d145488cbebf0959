import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import './app/global.css';

const root = document.getElementById('root');
if (root) {
  // A transition lets React yield between components, so the first render is many short tasks
  // rather than one long one (bench/web.bench.mjs: no task over 50 ms while home settles).
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
