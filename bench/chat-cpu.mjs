// Server CPU per answer: CPU milliseconds the Pluma server process spends per 500-token answer while 100
// answers stream at once. CPU time (user + system, read from /proc/<pid>/stat: the figure
// process.cpuUsage() gives inside the server, PGlite's worker thread included) is what a busy shared
// machine disturbs far less than latency, so it tracks the cost of the send and stream path across runs.
// The load has the shape of bench/chat-first-token.mjs: 100 lanes started evenly over one answer's
// duration, each sending its next prompt as soon as its answer ends.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { steadyLoad, viaPluma } from './chat-first-token.mjs';
import { chatUsers, closeUsers, perDatabase } from './chat-setup.mjs';

const STREAMS = 100;
const ROUNDS = 3;
const WORDS = 500;
const RATE = 100;
const STREAM_MS = (WORDS / RATE) * 1000;

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU milliseconds the process has used so far (fields 14 and 15 of /proc/<pid>/stat). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

async function measure(server) {
  const users = await chatUsers(server, STREAMS);
  try {
    // Warm-up: one answer per lane (JIT, pools, prepared statements).
    const send = viaPluma(users, WORDS, RATE);
    await Promise.all(users.map((_, lane) => send(lane, -1)));
    const before = cpuMs(server.pid);
    const started = performance.now();
    const run = await steadyLoad(send, { streams: STREAMS, rounds: ROUNDS, streamMs: STREAM_MS });
    const seconds = (performance.now() - started) / 1000;
    const used = cpuMs(server.pid) - before;
    const answers = run.samples.length;
    const perAnswer = used / Math.max(answers, 1);
    const failed = run.failures ? `; ${run.failures} answers FAILED (first: ${run.firstError?.message}): figures are suspect` : '';
    return [
      {
        benchmark: `Chat server CPU (${server.kind})`,
        measure: `CPU ms per ${WORDS}-token answer, ${STREAMS} streams`,
        value: `${perAnswer.toFixed(1)} ms per answer`,
        baseline: `${Math.round(used).toLocaleString('en-US')} ms CPU over ${seconds.toFixed(1)} s`,
        ratio: `${((used / 1000 / seconds) * 100).toFixed(0)}% of one core`,
        goal: 'reported',
        note: `${answers} answers (${STREAMS} lanes × ${ROUNDS}) at ${RATE} tokens/s after one warm-up round; user + system time of the server process only (/proc/<pid>/stat, ${ticksPerSecond} ticks/s), from the first prompt to the last answer's end${failed}`,
      },
    ];
  } finally {
    closeUsers(users);
  }
}

function unavailable(kind, reason) {
  return [{ benchmark: `Chat server CPU (${kind})`, measure: `CPU ms per ${WORDS}-token answer, ${STREAMS} streams`, value: 'n/a', goal: 'reported', note: reason }];
}

export default function chatCpu() {
  return perDatabase(measure, unavailable);
}
