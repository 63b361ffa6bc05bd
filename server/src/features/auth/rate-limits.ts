// Per-route rate limits of the auth and recovery endpoints (app.ts registers @fastify/rate-limit,
// with the Redis store when REDIS_URL is set, so the counts hold across nodes).
export const MINUTE_MS = 60_000;
/** Sign-up and recovery: 5 a minute per IP. */
export const SIGNUP_RECOVERY_PER_MINUTE = 5;
/** Token refresh: generous, since every open tab refreshes. */
export const REFRESH_PER_MINUTE = 60;
