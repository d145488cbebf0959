// `npm run dev`: the server under tsx watch (restarts on change) and Vite's dev server with hot
// module reload, which proxies /api, /healthz and /ws to the server. Open http://localhost:5173.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const port = process.env.PORT ?? '8080';
const serverEnv = {
  ...process.env,
  PORT: port,
  // The server runs from server/; keep its data where `npm start` keeps it.
  DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data'),
  // Links in mail and the OIDC redirect point at the page the developer has open.
  PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173',
};
const webEnv = { ...process.env, HEARTH_DEV_SERVER: `http://localhost:${port}` };

const children = [
  spawn('npm', ['run', 'dev', '-w', 'server'], { cwd: root, stdio: 'inherit', env: serverEnv }),
  spawn('npm', ['run', 'dev', '-w', 'web'], { cwd: root, stdio: 'inherit', env: webEnv }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
