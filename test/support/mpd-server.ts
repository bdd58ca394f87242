/** A Pier server wired to a test daemon: the player config for `startServer`. */
import type { Json } from './server.js';
import type { MpdInstance } from './mpd.js';

export const playerConfig = (mpd: MpdInstance, extra: { access?: string; connections?: Json; player?: Json } = {}): Json => ({
  player: {
    enabled: true,
    access: extra.access ?? 'user',
    'music-directory': mpd.library.music,
    connections: {
      default: { host: '127.0.0.1', port: mpd.port, title: 'Test daemon', timeout: '3 seconds', 'max-connections': 3 },
      ...extra.connections,
    },
    ...extra.player,
  },
});
