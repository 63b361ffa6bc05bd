// `npm run bench`: builds the server (root script), then runs each benchmark module and prints one table.
// Benchmarks report figures and ratios against a baseline measured in the same run; they never assert on
// time (DESIGN.md §5). A module that cannot run prints why; the exit code is non-zero only if one crashed.
// To add a benchmark: write bench/<name>.mjs exporting an async function that returns rows (lib/table.mjs)
// and list it below. `node bench/run.mjs cold` runs only the benchmarks whose name contains "cold".
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import apiThroughput from './api-throughput.mjs';
import backofficeScale from './backoffice-scale.mjs';
import bundleSize from './bundle-size.mjs';
import chatCpu from './chat-cpu.mjs';
import chatFirstToken from './chat-first-token.mjs';
import chatHistoryPage from './chat-history-page.mjs';
import chatStreamFrames from './chat-stream-frames.mjs';
import coldStart from './cold-start.mjs';
import documentTyping from './document-typing.mjs';
import heavyUsers from './heavy-users.mjs';
import idleMemory from './idle-memory.mjs';
import ingestionEventLoop from './ingestion-event-loop.mjs';
import { SERVER_ENTRY } from './lib/server-process.mjs';
import lighthouse from './lighthouse.mjs';
import { printTable } from './lib/table.mjs';
import socketMemory from './socket-memory.mjs';

const BENCHMARKS = [
  ['API throughput', apiThroughput],
  ['Cold start', coldStart],
  ['Idle memory', idleMemory],
  ['Socket memory', socketMemory],
  ['Bundle size', bundleSize],
  ['Chat first token', chatFirstToken],
  ['Chat server CPU', chatCpu],
  ['Chat stream frames', chatStreamFrames],
  ['Chat history page', chatHistoryPage],
  ['Lighthouse', lighthouse],
  ['Back-office scale', backofficeScale],
  ['Heavy users', heavyUsers],
  ['Document typing', documentTyping],
  ['Ingestion event loop', ingestionEventLoop],
];

if (!existsSync(SERVER_ENTRY)) {
  console.error(`${SERVER_ENTRY} is missing: run \`npm run build -w server\` (npm run bench does it).`);
  process.exit(1);
}

// Other work on the machine skews the figures (the database route suffers most): say how busy it was.
const loadAtStart = loadavg()[0];
const only = process.argv.slice(2).map((name) => name.toLowerCase());
const rows = [];
let crashed = 0;
for (const [name, bench] of BENCHMARKS) {
  if (only.length && !only.some((wanted) => name.toLowerCase().includes(wanted))) continue;
  console.log(`running: ${name}...`);
  const started = performance.now();
  try {
    rows.push(...(await bench()));
  } catch (err) {
    crashed++;
    rows.push({ benchmark: name, measure: 'crashed', value: 'n/a', note: err.stack ?? String(err) });
  }
  console.log(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const load = `load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end`;
console.log(`\nPluma benchmarks — Node ${process.version}, ${availableParallelism()} CPUs, ${load}, ${new Date().toISOString()}\n`);
printTable(rows);
process.exit(crashed ? 1 : 0);
