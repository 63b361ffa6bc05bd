// Stream frames carry deltas, batched (DESIGN.md §6): text is gathered and sent at most once per
// interval (~60 frames/s), never the text so far.
import { STREAM_FRAME_INTERVAL_MS } from '@pluma/common/events';

/** Answers one process streams at the full frame rate (~60 frames/s each). */
export const FULL_RATE_STREAMS = 20;
/** The widest spacing of a stream's frames, however many stream at once (10 frames/s). */
export const MAX_FRAME_INTERVAL_MS = 100;

/**
 * The spacing of one stream's frames when `streams` answers stream in this process: the full rate up to
 * FULL_RATE_STREAMS, then spaced out so the process sends about as many frames per second in all. A frame
 * costs the server a socket write per tab, whatever it carries: at 100 streams those writes were most of
 * the server's CPU (bench/chat-cpu.mjs, issue 31 item 2). The first frame of an answer never waits.
 */
export function frameIntervalFor(streams: number): number {
  return Math.min(MAX_FRAME_INTERVAL_MS, STREAM_FRAME_INTERVAL_MS * Math.max(1, streams / FULL_RATE_STREAMS));
}

export class FrameBatcher {
  private pending = '';
  private lastFlush = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly send: (delta: string) => void,
    /** Milliseconds between frames: fixed, or asked at each frame (frameIntervalFor the current load). */
    private readonly intervalMs: number | (() => number) = STREAM_FRAME_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  private wait(): number {
    return this.lastFlush + (typeof this.intervalMs === 'number' ? this.intervalMs : this.intervalMs()) - this.now();
  }

  push(text: string): void {
    if (!text) return;
    this.pending += text;
    // Already waiting for the timer: nothing to decide (the interval is asked once per frame, not per token).
    if (this.timer) return;
    const wait = this.wait();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(this.onTimer, wait);
  }

  // Node's timers count from the event loop's cached clock, which lags when the loop is busy, so a timer
  // can fire a few ms early: flushing then anyway gave ~66 frames/s (bench/chat-stream-frames.mjs).
  private readonly onTimer = (): void => {
    this.timer = null;
    const wait = this.wait();
    if (wait > 0) this.timer = setTimeout(this.onTimer, wait);
    else this.flush();
  };

  /** Sends what is gathered now (the end of a stream must not wait for the timer). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.pending) return;
    const delta = this.pending;
    this.pending = '';
    this.lastFlush = this.now();
    this.send(delta);
  }
}
