import { describe, expect, it } from 'vitest';
import { fairOrder, fairSwaps, type WaitingSong } from '../../../server/core/rooms/turns.js';
import { cleanName } from '../../../server/core/rooms/guest-name.js';

const g = (id: string, guest: string, since: number, added: number): WaitingSong => ({ id, kind: 'guest', guest, guestSince: since, added });

describe('fair turns', () => {
  it('plays the first song of every guest before anyone\'s second, guests in the order they first added', () => {
    const waiting = [g('1', 'a', 1, 1), g('2', 'a', 1, 2), g('3', 'a', 1, 3), g('4', 'b', 4, 4), g('5', 'c', 5, 5), g('6', 'b', 4, 6)];
    expect(fairOrder(waiting)).toEqual(['1', '4', '5', '2', '6', '3']);
  });

  it('never moves the owner\'s songs and puts fallback songs after the guests\'', () => {
    const waiting: WaitingSong[] = [{ id: '9', kind: 'fallback' }, g('1', 'a', 1, 1), { id: '7', kind: 'owner' }, g('2', 'a', 1, 2), g('3', 'b', 3, 3)];
    const swaps = fairSwaps(waiting);
    const order = waiting.map((s) => s.id);
    for (const [x, y] of swaps) {
      const i = order.indexOf(x);
      const j = order.indexOf(y);
      [order[i], order[j]] = [order[j]!, order[i]!];
      expect([x, y]).not.toContain('7');
    }
    expect(order).toEqual(['1', '3', '7', '2', '9']);
  });

  it('asks for no swap when the order is already fair', () => {
    expect(fairSwaps([g('1', 'a', 1, 1), g('2', 'b', 2, 2), g('3', 'a', 1, 3)])).toEqual([]);
  });
});

describe('guest names', () => {
  it('keeps plain text only, bounded', () => {
    expect(cleanName('<b>Anna</b>')).toBe('bAnna/b');
    expect(cleanName('\u202Egnp.exe\u202C Bob')).toBe('gnp.exe Bob');
    expect(cleanName('a\nb\tc')).toBe('a b c');
    expect([...cleanName('é'.repeat(100))]).toHaveLength(40);
    expect(cleanName(42)).toBe('');
  });
});
