// `npm run dev`: the API with reload on change (tsx watch) and Vite with hot reload, which proxies /api
// and /socket.io to the API. Ctrl+C stops both; if one exits, the other is stopped too.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apiPort = process.env.PORT ?? '3000';
const webPort = process.env.WEB_PORT ?? '5173';
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

const processes = [
  {
    name: 'api',
    color: 36,
    command: bin('tsx'),
    args: ['watch', '--clear-screen=false', 'server/src/main.ts'],
    // Run from the repository root so DATA_DIR=./data is the same folder `npm start` uses.
    cwd: root,
    env: {
      NODE_ENV: 'development',
      PORT: apiPort,
      // Links the API builds (password reset, sign-in) should open the dev web server.
      PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${webPort}`,
    },
  },
  {
    name: 'web',
    color: 35,
    command: bin('vite'),
    args: ['--port', webPort, '--strictPort'],
    cwd: path.join(root, 'web'),
    env: { PLUMA_API_URL: `http://localhost:${apiPort}`, WEB_PORT: webPort },
  },
];

let stopping = false;
const children = processes.map(({ name, color, command, args, cwd, env }) => {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['inherit', 'pipe', 'pipe'] });
  const prefix = `\x1b[${color}m[${name}]\x1b[0m `;
  const relay = (stream, target) => {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) target.write(prefix + line + '\n');
    });
  };
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${prefix}exited (${signal ?? code}); stopping the other process.`);
      stop(code ?? 1);
    }
  });
  return child;
});

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 1500).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
console.log(`Pluma dev: web http://localhost:${webPort} (proxying /api and /socket.io to http://localhost:${apiPort})`);
