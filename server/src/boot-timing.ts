// BOOT_TIMING=1: the boot's steps with the time each ended, since the process started (performance.now()
// counts from there), printed once the server listens. How the cold start was measured (bench/cold-start.mjs).
const steps: { label: string; at: number }[] = [];

/** Records that `label` has just finished. */
export function bootStep(label: string): void {
  if (process.env.BOOT_TIMING === '1') steps.push({ label, at: performance.now() });
}

/** The recorded steps, one line each: when it ended and how long since the previous one. */
export function bootTimeline(): string {
  let previous = 0;
  return steps
    .map(({ label, at }) => {
      const line = `${String(Math.round(at)).padStart(6)} ms  +${String(Math.round(at - previous)).padStart(5)} ms  ${label}`;
      previous = at;
      return line;
    })
    .join('\n');
}
