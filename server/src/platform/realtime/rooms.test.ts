import { describe, expect, it } from 'vitest';
import { joinTarget, userRoom } from './rooms';

describe('rooms', () => {
  it('names the user room as the spec does', () => {
    expect(userRoom(42)).toBe('user-42');
  });

  it('reads the user a join names, in the forms clients send', () => {
    expect(joinTarget(42)).toBe(42);
    expect(joinTarget('42')).toBe(42);
    expect(joinTarget('user-42')).toBe(42);
    expect(joinTarget({ user_id: 42 })).toBe(42);
    expect(joinTarget({ user_id: 'user-42' })).toBe(42);
  });

  it('names nobody for anything else', () => {
    for (const arg of [undefined, null, 0, -3, 1.5, '', 'user-', 'admin', 'user-1-2', 'room-4', {}, { id: 4 }, [4], Number.MAX_VALUE]) {
      expect(joinTarget(arg)).toBeNull();
    }
  });
});
