// Hands the player page's state (usePlayer) and the chosen connection to its parts.
import { inject, provide, type InjectionKey, type Ref } from 'vue';
import type { PlayerState } from './usePlayer';

export interface PlayerContext {
  player: PlayerState;
  conn: Ref<string | null>;
}

const key: InjectionKey<PlayerContext> = Symbol('player');

export function providePlayer(ctx: PlayerContext): void {
  provide(key, ctx);
}

export function usePlayerContext(): PlayerContext {
  const ctx = inject(key);
  if (!ctx) throw new Error('usePlayerContext() outside the player page');
  return ctx;
}
