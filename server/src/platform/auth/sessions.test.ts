// The session rules on their own (the API tests in features/auth cover them through the routes).
import { describe, expect, it } from 'vitest';
import { judgeSession, needsTouch, ROTATION_GRACE_MS, SESSION_IDLE_MS, TOUCH_INTERVAL_MS } from './sessions';

const NOW = 1_800_000_000_000;
const times = (overrides: { lastUsedAt?: number; expiresAt?: number; rotatedAt?: number | null } = {}) => ({
  lastUsedAt: new Date(overrides.lastUsedAt ?? NOW - 1_000),
  expiresAt: new Date(overrides.expiresAt ?? NOW + 86_400_000),
  rotatedAt: overrides.rotatedAt == null ? null : new Date(overrides.rotatedAt),
});

describe('judgeSession', () => {
  it('accepts a live session', () => {
    expect(judgeSession(times(), NOW)).toBe('ok');
  });

  it('expires at the absolute end and after a week idle', () => {
    expect(judgeSession(times({ expiresAt: NOW }), NOW)).toBe('expired');
    expect(judgeSession(times({ lastUsedAt: NOW - SESSION_IDLE_MS }), NOW)).toBe('expired');
    expect(judgeSession(times({ lastUsedAt: NOW - SESSION_IDLE_MS + 1 }), NOW)).toBe('ok');
  });

  it('a rotated token is good for requests during the grace only, and never for another refresh', () => {
    expect(judgeSession(times({ rotatedAt: NOW - ROTATION_GRACE_MS + 1 }), NOW)).toBe('ok');
    expect(judgeSession(times({ rotatedAt: NOW - ROTATION_GRACE_MS }), NOW)).toBe('reused');
    expect(judgeSession(times({ rotatedAt: NOW - 1 }), NOW, { forRefresh: true })).toBe('reused');
  });
});

describe('needsTouch', () => {
  it('writes last_used_at when missing or over a minute old', () => {
    expect(needsTouch(null, NOW)).toBe(true);
    expect(needsTouch(new Date(NOW - TOUCH_INTERVAL_MS), NOW)).toBe(false);
    expect(needsTouch(new Date(NOW - TOUCH_INTERVAL_MS - 1), NOW)).toBe(true);
  });
});
