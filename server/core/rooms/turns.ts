/**
 * Fair turns: the order in which the waiting songs that rooms added should
 * play, and the swaps that get the daemon's queue there without moving any
 * other song.
 *
 * Among the waiting songs added through rooms, the first song of each guest
 * (guests in the order they first added one) plays before anyone's second,
 * and so on; fallback songs come after every guest's song. Songs added on the
 * player keep their positions: the songs of rooms are only swapped among
 * the positions they already hold.
 */

export interface WaitingSong {
  /** the daemon's song id */
  id: string;
  /** `owner` songs are never moved */
  kind: 'guest' | 'owner' | 'fallback';
  /** the guest (for `guest` songs) */
  guest?: string;
  /** when the guest first added a song (orders the turns) */
  guestSince?: number;
  /** when the song was added (orders one guest's songs) */
  added?: number;
}

/** The ids of the room songs in the order they should take the positions the room songs hold now. */
export const fairOrder = (waiting: readonly WaitingSong[]): string[] => {
  const byGuest = new Map<string, { since: number; songs: WaitingSong[] }>();
  const fallback: WaitingSong[] = [];
  for (const s of waiting) {
    if (s.kind === 'fallback') fallback.push(s);
    if (s.kind !== 'guest') continue;
    const key = s.guest ?? `song:${s.id}`;
    const g = byGuest.get(key) ?? { since: s.guestSince ?? s.added ?? 0, songs: [] };
    g.songs.push(s);
    byGuest.set(key, g);
  }
  const guests = [...byGuest.entries()].sort((a, b) => a[1].since - b[1].since || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, g]) => g);
  for (const g of guests) g.songs.sort((a, b) => (a.added ?? 0) - (b.added ?? 0) || Number(a.id) - Number(b.id));
  const order: string[] = [];
  for (let turn = 0; ; turn++) {
    let any = false;
    for (const g of guests) {
      const s = g.songs[turn];
      if (s) {
        order.push(s.id);
        any = true;
      }
    }
    if (!any) break;
  }
  return [...order, ...fallback.map((s) => s.id)];
};

/**
 * The `swapid` pairs that turn the waiting songs' order into the fair one:
 * each room song's position is taken by the song that should be there, and
 * songs of the owner are never part of a swap.
 */
export const fairSwaps = (waiting: readonly WaitingSong[]): Array<[string, string]> => {
  const current = waiting.filter((s) => s.kind !== 'owner').map((s) => s.id);
  const desired = fairOrder(waiting);
  const swaps: Array<[string, string]> = [];
  for (let i = 0; i < desired.length; i++) {
    if (current[i] === desired[i]) continue;
    const j = current.indexOf(desired[i]!, i + 1);
    if (j < 0) continue;
    swaps.push([current[i]!, current[j]!]);
    [current[i], current[j]] = [current[j]!, current[i]!];
  }
  return swaps;
};
