// Frames and socket bytes of one streamed answer: 8,000 tokens versus 500, same pace. Frames carry deltas
// batched at most every 16 ms (DESIGN.md §6), so frames per second stay ≤ ~60 whatever the token rate, and
// the bytes on the socket grow linearly with the answer: ≤ 17× for 16× the tokens (a stream that re-sent
// the text so far would grow quadratically, as Open WebUI's did).
// The server caps one answer at AI_MAX_ANSWER_TOKENS (default 2048); this benchmark starts it with 10000
// so the 8,000-token answer is one stream, not four Continue requests.
import { chatUsers, closeUsers, withServer } from './chat-setup.mjs';

const RATE = 1000;
const LONG = 8000;
const SHORT = 500;
const GOAL_FRAMES_PER_S = 60;
// Batching at 16 ms gives 62.5 frames/s at most; "~60" allows that and the timer's jitter.
const FRAMES_TOLERANCE = 1.1;
const GOAL_BYTES_RATIO = 17;

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Sends one answer of `words` tokens at RATE tokens/s and returns what its socket received. */
async function streamOnce(user, words) {
  const watch = user.watcher.next(user.conversationId, 120_000);
  const content = `[words:${words}] [rate:${RATE}] Write the long report on our product launch`;
  await user.api.expect(201, 'POST', '/api/messages', { content, conversation_id: user.conversationId, stream: true });
  const end = await watch.end;
  const seconds = (end.lastFrameAt - end.firstFrameAt) / 1000;
  return {
    frames: end.frames,
    framesPerSecond: seconds > 0 ? (end.frames - 1) / seconds : end.frames,
    bytes: end.bytes,
    endBytes: end.endBytes,
    chars: end.contentChars,
    joinedMatches: end.deltaChars === end.contentChars,
    finishReason: end.finishReason,
  };
}

async function measure(server) {
  const [user] = await chatUsers(server, 1);
  try {
    await streamOnce(user, SHORT); // warm-up
    const short = await streamOnce(user, SHORT);
    const long = await streamOnce(user, LONG);
    const ratio = long.bytes / short.bytes;
    const problems = [short, long]
      .filter((r) => !r.joinedMatches || r.finishReason !== 'stop')
      .map((r) => `an answer ended with finish_reason ${r.finishReason} or its deltas did not add up to its text (${r.chars} chars)`);
    const benchmark = `Chat stream frames (${server.kind})`;
    return [
      {
        benchmark,
        measure: `frames per second per stream, ${RATE} tokens/s`,
        value: `${long.framesPerSecond.toFixed(1)} frames/s (${LONG.toLocaleString('en-US')} tokens, ${long.frames} frames)`,
        baseline: `${short.framesPerSecond.toFixed(1)} frames/s (${SHORT} tokens, ${short.frames} frames)`,
        goal: `≤ ~${GOAL_FRAMES_PER_S} frames/s ${long.framesPerSecond <= GOAL_FRAMES_PER_S * FRAMES_TOLERANCE ? 'met' : 'MISSED'}`,
        note:
          'frames/s = frames after the first ÷ time from the first to the last frame as received; judged on the long answer ' +
          '(the short one lasts half a second, so network jitter moves it by a few frames/s); the server flushes at most every 16 ms (62.5/s) ' +
          'plus one last flush at the end; the emulator sends one token per SSE chunk',
      },
      {
        benchmark,
        measure: `socket bytes, ${LONG.toLocaleString('en-US')}- vs ${SHORT}-token answer`,
        value: kb(long.bytes),
        baseline: kb(short.bytes),
        ratio: `${ratio.toFixed(1)}× (tokens ${LONG / SHORT}×)`,
        goal: `≤ ${GOAL_BYTES_RATIO}× ${ratio <= GOAL_BYTES_RATIO ? 'met' : 'MISSED'}`,
        note: [
          `every websocket message from POST to message_stream_end, one stream each; the end event alone is ${kb(long.endBytes)} vs ${kb(short.endBytes)} (it carries the whole text twice: content and message.content) for a text of ${kb(long.chars)} vs ${kb(short.chars)}`,
          `AI_MAX_ANSWER_TOKENS=10000 so the ${LONG.toLocaleString('en-US')}-token answer is one stream`,
          ...problems,
        ].join('; '),
      },
    ];
  } finally {
    closeUsers([user]);
  }
}

export default async function chatStreamFrames() {
  try {
    // The database does not shape frames (saves run apart from them), so PGlite alone is measured.
    return await withServer('PGlite', null, measure, { env: { AI_MAX_ANSWER_TOKENS: '10000' } });
  } catch (err) {
    return [{ benchmark: 'Chat stream frames (PGlite)', measure: 'frames and socket bytes', value: 'n/a', goal: `≤ ~${GOAL_FRAMES_PER_S} frames/s, ≤ ${GOAL_BYTES_RATIO}× bytes`, note: err.stack ?? String(err) }];
  }
}
