// Periodic in-process work (the reconciliation sweeps, the interrupted-answers sweep): runs `work` every
// `intervalMs`, never two at once (a run still going when the next is due is skipped), errors to
// `onError`; the timer does not keep the process alive. Returns the function that stops it.
export function every(intervalMs: number, work: () => Promise<unknown>, onError: (err: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    work()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
