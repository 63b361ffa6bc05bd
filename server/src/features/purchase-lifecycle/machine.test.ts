// The lifecycle table itself (database-free; the moves applied to real rows are in payments/payments.test.ts):
// one move per (state, event) at most, every target a known state, the guard on refunded failures, and the
// provider statuses mapped to events.
import { describe, expect, it } from 'vitest';
import { eventForStatus, LIFECYCLE_EVENTS, PURCHASE_STATES, REFUNDED_FAILURES, STAFF_MOVES, staffMoveAllowed, TRANSITIONS, transitionFor } from './machine';

describe('purchase lifecycle table', () => {
  it("staff's moves: a cancelled or revoked purchase only to cancelled or revoked, any other to any of the five; active and completed grant the package", () => {
    const targets = Object.keys(STAFF_MOVES);
    expect(targets.sort()).toEqual(['active', 'cancelled', 'completed', 'pending', 'revoked']);
    for (const from of PURCHASE_STATES) {
      const allowed = targets.filter((to) => staffMoveAllowed(from, to));
      expect(allowed.sort(), from).toEqual(from === 'cancelled' || from === 'revoked' ? ['cancelled', 'revoked'] : targets.sort());
    }
    expect(staffMoveAllowed('active', 'failed')).toBe(false);
    expect(staffMoveAllowed('pending', 'expired')).toBe(false);
    expect(Object.entries(STAFF_MOVES).filter(([, effects]) => effects.includes('grant')).map(([to]) => to).sort()).toEqual(['active', 'completed']);
  });


  it('has at most one move per state and event, between known states; anything else is refused', () => {
    const pairs = TRANSITIONS.map((t) => `${t.from}:${t.on}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const t of TRANSITIONS) {
      expect(PURCHASE_STATES).toContain(t.from);
      expect(PURCHASE_STATES).toContain(t.to);
    }
    for (const from of PURCHASE_STATES) {
      for (const on of LIFECYCLE_EVENTS) {
        const listed = TRANSITIONS.find((t) => t.from === from && t.on === on) ?? null;
        expect(transitionFor({ status: from, failureReason: null }, on), `${from} --${on}-->`).toBe(listed);
      }
    }
    // Final for providers: staff's ends and the paid ones' duplicates.
    expect(transitionFor({ status: 'completed', failureReason: null }, 'paid')).toBeNull();
    expect(transitionFor({ status: 'completed', failureReason: null }, 'declined')).toBeNull();
    expect(transitionFor({ status: 'cancelled', failureReason: null }, 'subscribed')).toBeNull();
  });

  it('keeps a payment refunded over a limit failed; a declined one may still be paid', () => {
    for (const reason of REFUNDED_FAILURES) {
      expect(transitionFor({ status: 'failed', failureReason: reason }, 'paid')).toBeNull();
      expect(transitionFor({ status: 'failed', failureReason: reason }, 'subscribed')).toBeNull();
    }
    expect(transitionFor({ status: 'failed', failureReason: 'generic_decline' }, 'paid')?.to).toBe('completed');
  });

  it('maps a provider subscription status to an event', () => {
    expect(eventForStatus('pending', 'active')).toBe('subscribed');
    expect(eventForStatus('revoked', 'active')).toBe('restored');
    expect(eventForStatus('active', 'cancelled')).toBe('ended');
    expect(eventForStatus('active', 'revoked')).toBe('lapsed');
    expect(eventForStatus('pending', 'revoked')).toBe('abandoned');
    expect(eventForStatus('active', 'pending')).toBeNull();
  });
});
