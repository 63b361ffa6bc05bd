// Time to first token at 100 concurrent streams: through Pluma versus straight to the same emulator.
//   through Pluma: `POST /api/messages` sent → first `message_stream` frame on that user's socket;
//   direct:        the request the server's SDK makes (official `openai` SDK, same stream options) →
//                  first SSE chunk with content.
// Both run the same load shape: 100 lanes (one user, conversation and loopback address each), started
// evenly over one answer's duration, each sending its next message as soon as the previous answer ends,
// so about 100 answers stream at any moment. The difference of the percentiles is what Pluma adds
// (auth, access check, two inserts, context read, settings read, SDK call, batching, Socket.IO).
// Goal: ≤ 3 ms added at p50 and ≤ 10 ms at p99.
import OpenAI from 'openai';
import { percentile, sleep } from './chat-client.mjs';
import { chatUsers, closeUsers, perDatabase } from './chat-setup.mjs';

const STREAMS = 100;
const ROUNDS = 5;
const WORDS = 60;
const RATE = 30;
const STREAM_MS = (WORDS / RATE) * 1000;
const GOAL_P50_MS = 3;
const GOAL_P99_MS = 10;

const prompt = (lane, round) => `[words:${WORDS}] [rate:${RATE}] Lane ${lane}, round ${round}: a short note about our launch`;
const ms = (value) => `${value.toFixed(1)} ms`;

/** Runs `once(lane, round)` for every lane and round in the steady-state shape; collects the figures. */
async function steadyLoad(once) {
  const samples = [];
  let failures = 0;
  let firstError = null;
  await Promise.all(
    Array.from({ length: STREAMS }, async (_, lane) => {
      await sleep((lane * STREAM_MS) / STREAMS);
      for (let round = 0; round < ROUNDS; round++) {
        try {
          samples.push(await once(lane, round));
        } catch (err) {
          failures++;
          firstError ??= err;
        }
      }
    }),
  );
  return { samples, failures, firstError };
}

/** Through Pluma: POST, then the first frame of this conversation on the user's socket; waits for the end. */
function viaPluma(users) {
  return async (lane, round) => {
    const user = users[lane];
    const watch = user.watcher.next(user.conversationId);
    const sentAt = performance.now();
    const res = await user.api.request('POST', '/api/messages', { content: prompt(lane, round), conversation_id: user.conversationId, stream: true });
    if (res.status !== 201) {
      watch.fail(new Error('not sent'));
      throw new Error(`POST /api/messages answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    const firstAt = await watch.first;
    await watch.end;
    return firstAt - sentAt;
  };
}

/** Straight to the emulator with the server's own SDK and request shape. */
function direct(emulatorUrl) {
  const client = new OpenAI({ apiKey: 'bench', baseURL: emulatorUrl, maxRetries: 0 });
  return async (lane, round) => {
    const sentAt = performance.now();
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: prompt(lane, round) }],
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 2048,
    });
    let firstAt = null;
    for await (const chunk of stream) {
      if (firstAt === null && chunk.choices[0]?.delta?.content) firstAt = performance.now();
    }
    if (firstAt === null) throw new Error('the emulator sent no content');
    return firstAt - sentAt;
  };
}

function failureNote(label, run) {
  return run.failures ? `${run.failures} ${label} streams FAILED (first: ${run.firstError?.message}): figures are suspect` : '';
}

async function measure(server) {
  const users = await chatUsers(server, STREAMS);
  try {
    // Warm-up: one round each way (JIT, connection pools, the emulator's first requests).
    const warmPluma = viaPluma(users);
    const warmDirect = direct(server.emulatorUrl);
    await Promise.all(users.map((_, lane) => warmDirect(lane, -1)));
    await Promise.all(users.map((_, lane) => warmPluma(lane, -1)));

    const baseline = await steadyLoad(direct(server.emulatorUrl));
    const pluma = await steadyLoad(viaPluma(users));
    const figures = (run) => ({ p50: percentile(run.samples, 50), p99: percentile(run.samples, 99) });
    const via = figures(pluma);
    const straight = figures(baseline);
    const added50 = via.p50 - straight.p50;
    const added99 = via.p99 - straight.p99;
    const note = [
      `${STREAMS} concurrent streams × ${ROUNDS} answers each (${pluma.samples.length} through Pluma, ${baseline.samples.length} direct), ${WORDS}-token answers at ${RATE} tokens/s, after one warm-up round`,
      'server, emulator and this client share the machine',
      failureNote('Pluma', pluma),
      failureNote('direct', baseline),
    ]
      .filter(Boolean)
      .join('; ');
    const benchmark = `Chat first token (${server.kind})`;
    return [
      {
        benchmark,
        measure: `time to first token p50, ${STREAMS} streams`,
        value: `${ms(via.p50)} through Pluma`,
        baseline: `${ms(straight.p50)} direct`,
        ratio: `+${ms(added50)} added`,
        goal: `≤ +${GOAL_P50_MS} ms ${added50 <= GOAL_P50_MS ? 'met' : 'MISSED'}`,
        note,
      },
      {
        benchmark,
        measure: `time to first token p99, ${STREAMS} streams`,
        value: `${ms(via.p99)} through Pluma`,
        baseline: `${ms(straight.p99)} direct`,
        ratio: `+${ms(added99)} added`,
        goal: `≤ +${GOAL_P99_MS} ms ${added99 <= GOAL_P99_MS ? 'met' : 'MISSED'}`,
      },
    ];
  } finally {
    closeUsers(users);
  }
}

function unavailable(kind, reason) {
  return [{ benchmark: `Chat first token (${kind})`, measure: `time to first token, ${STREAMS} streams`, value: 'n/a', goal: `≤ +${GOAL_P50_MS} ms p50, ≤ +${GOAL_P99_MS} ms p99`, note: reason }];
}

export default function chatFirstToken() {
  return perDatabase(measure, unavailable);
}
