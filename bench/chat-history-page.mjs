// Opening a long conversation: the newest page of a 2,000-message conversation versus a 20-message one
// (GET /api/messages/conversation/{id}, default page of 20). Messages are rows paged by cursor
// (DESIGN.md §6), so the long one should cost about the same: median ratio ≤ 1.3×.
// Both conversations are filled through the API (POST /api/messages, stream false, emulator at rate 0:
// a prompt row and an answer row each), the way users fill them; the PGlite database belongs to the
// server process, so SQL seeding is not possible there, and the same path is used for PostgreSQL.
import { ApiClient, clientAddress, inParallel, percentile } from './chat-client.mjs';
import { chatUsers, closeUsers, perDatabase } from './chat-setup.mjs';

const LONG_MESSAGES = 2000;
const SHORT_MESSAGES = 20;
const SAMPLES = 300;
const WARMUP = 30;
const GOAL_RATIO = 1.3;
// POST /api/messages allows 60 a minute per IP: the seeding spreads over this many loopback addresses.
const SEED_ADDRESSES = 30;
const SEED_CONCURRENCY = 8;

const ms = (value) => `${value.toFixed(2)} ms`;

/** Fills `conversationId` with `messages` rows (half prompts, half finished answers) and waits for the answers. */
async function fill(server, user, conversationId, messages, addressOffset) {
  const answers = messages / 2;
  let answered = 0;
  let failed = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const onFinished = (payload) => {
    if (payload.conversation_id !== conversationId) return;
    if (payload.message?.status === 'done') answered++;
    else failed++;
    if (answered + failed === answers) resolveDone();
  };
  const onError = (payload) => {
    if (payload.conversation_id !== conversationId) return;
    failed++;
    if (answered + failed === answers) resolveDone();
  };
  user.socket.on('message', onFinished);
  user.socket.on('openai-error', onError);
  const clients = Array.from({ length: SEED_ADDRESSES }, (_, i) => new ApiClient(server.url, { localAddress: clientAddress(addressOffset + i), token: user.api.token }));
  try {
    await inParallel(answers, SEED_CONCURRENCY, (i) =>
      clients[i % SEED_ADDRESSES].expect(201, 'POST', '/api/messages', { content: `[words:12] [rate:0] Note ${i} for the archive`, conversation_id: conversationId, stream: false }),
    );
    const timeout = setTimeout(resolveDone, 120_000);
    await done;
    clearTimeout(timeout);
  } finally {
    user.socket.off('message', onFinished);
    user.socket.off('openai-error', onError);
    for (const client of clients) client.close();
  }
  if (answered !== answers) {
    throw new Error(`conversation ${conversationId} got ${answered} finished answers (${failed} failed); wanted ${answers}`);
  }
}

/** Time of one GET of the newest page (checked to be a full page). */
async function loadNewestPage(api, conversationId) {
  const started = performance.now();
  const res = await api.request('GET', `/api/messages/conversation/${conversationId}`);
  const elapsed = performance.now() - started;
  if (res.status !== 200 || res.body.messages.length !== 20) throw new Error(`GET /api/messages/conversation/${conversationId} answered ${res.status}`);
  return elapsed;
}

async function measure(server) {
  const [user] = await chatUsers(server, 1);
  try {
    const short = user.conversationId;
    const long = (await user.api.expect(201, 'POST', '/api/conversations', { name: 'Bench archive' })).conversation_id;
    const seedStarted = performance.now();
    await fill(server, user, short, SHORT_MESSAGES, 1);
    await fill(server, user, long, LONG_MESSAGES, 1 + SEED_ADDRESSES);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    for (let i = 0; i < WARMUP; i++) {
      await loadNewestPage(user.api, short);
      await loadNewestPage(user.api, long);
    }
    // Alternating, so drift in the machine's load falls on both sides alike.
    const shortTimes = [];
    const longTimes = [];
    for (let i = 0; i < SAMPLES; i++) {
      shortTimes.push(await loadNewestPage(user.api, short));
      longTimes.push(await loadNewestPage(user.api, long));
    }
    const shortMedian = percentile(shortTimes, 50);
    const longMedian = percentile(longTimes, 50);
    const ratio = longMedian / shortMedian;
    return [
      {
        benchmark: `Chat history page (${server.kind})`,
        measure: `newest page, ${LONG_MESSAGES.toLocaleString('en-US')}- vs ${SHORT_MESSAGES}-message conversation`,
        value: `${ms(longMedian)} median, p90 ${ms(percentile(longTimes, 90))}`,
        baseline: `${ms(shortMedian)} median, p90 ${ms(percentile(shortTimes, 90))}`,
        ratio: `${ratio.toFixed(3)}×`,
        goal: `≤ ${GOAL_RATIO}× ${ratio <= GOAL_RATIO ? 'met' : 'MISSED'}`,
        note: `${SAMPLES} sequential requests each, alternating, after ${WARMUP} warm-up pairs; page of 20; seeded through the API in ${seedSeconds.toFixed(1)} s`,
      },
    ];
  } finally {
    closeUsers([user]);
  }
}

function unavailable(kind, reason) {
  return [{ benchmark: `Chat history page (${kind})`, measure: `newest page, ${LONG_MESSAGES}- vs ${SHORT_MESSAGES}-message conversation`, value: 'n/a', goal: `≤ ${GOAL_RATIO}×`, note: reason }];
}

export default function chatHistoryPage() {
  return perDatabase(measure, unavailable);
}
