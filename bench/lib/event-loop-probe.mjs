// Loaded into the server process with `node --import` (bench/ingestion-event-loop.mjs): measures the main
// thread's event-loop delay (perf_hooks.monitorEventLoopDelay). On SIGUSR2 it writes the figures since the
// last signal to BENCH_EVENT_LOOP_FILE (JSON, milliseconds) and starts again, so the bench can cut the run
// into phases without the server knowing about it. Worker threads load it too and do nothing.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && process.env.BENCH_EVENT_LOOP_FILE) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let since = performance.now();
  process.on('SIGUSR2', () => {
    const ms = (ns) => ns / 1e6;
    const figures = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      samples: histogram.count,
      durationMs: performance.now() - since,
    };
    writeFileSync(process.env.BENCH_EVENT_LOOP_FILE, JSON.stringify(figures));
    histogram.reset();
    since = performance.now();
  });
}
