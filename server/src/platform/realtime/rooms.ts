// Rooms of the real-time channel (spec part 2 §7: "joins the room user-{user_id}").
// A socket is only ever in its own user's room; what a client asks to join is never trusted.

export function userRoom(userId: number): string {
  return `user-${userId}`;
}

/**
 * The user id a client's 'join' event names. Clients written for the original product send the id
 * itself, the room name or `{ user_id }`; anything else names nobody (null).
 */
export function joinTarget(arg: unknown): number | null {
  if (arg && typeof arg === 'object' && 'user_id' in arg) return joinTarget((arg as { user_id: unknown }).user_id);
  if (typeof arg === 'number') return Number.isSafeInteger(arg) && arg > 0 ? arg : null;
  if (typeof arg !== 'string') return null;
  const match = /^(?:user-)?(\d{1,15})$/.exec(arg.trim());
  return match ? joinTarget(Number(match[1])) : null;
}
