/**
 * Server events for whoever hosts the server (the desktop app shows a
 * notification when a guest upload arrives or a share was first downloaded). A tiny typed emitter: the core
 * emits, hosts subscribe through `ServerEvents`; the core never knows who
 * listens.
 */
import type { Logger } from '../../common/log.js';

export type ServerEvent =
  | {
      type: 'guest-upload-completed';
      shareId: string;
      aliasId: string;
      aliasName: string;
      /** the share's name: the one the server gave a guest share (`From Anna · 3 photos · 23 Nov`) or the one chosen */
      shareName: string;
      fileCount: number;
      totalSize: number;
    }
  | {
      /** a guest joined a room (the desktop may say so; off by default) */
      type: 'room-guest-joined';
      roomId: string;
      roomName: string;
      /** plain text, cleaned (no markup, no bidirectional controls) */
      guestName: string;
      /** guests of the room now */
      guests: number;
    }
  | {
      /** the first complete download of a share (a file or the ZIP), once per share */
      type: 'share-downloaded';
      shareId: string;
      /** the share's name, or null when nobody named it */
      shareName: string | null;
      /** the downloaded file's name, or null for the ZIP */
      fileName: string | null;
      /** the recipient's browser and system (`Firefox on Android`), or '' when unknown */
      client: string;
    };

export interface ServerEvents {
  /** Calls `listener` for every event from now on; the returned function unsubscribes. */
  subscribe(listener: (e: ServerEvent) => void): () => void;
}

/** The emitting side, for the core. */
export interface ServerEventBus extends ServerEvents {
  /** Calls every listener synchronously; a listener that throws is logged and the others still run. */
  emit(e: ServerEvent): void;
}

export const createServerEvents = (log: Logger): ServerEventBus => {
  const listeners = new Set<(e: ServerEvent) => void>();
  return {
    subscribe(listener) {
      // a wrapper, so subscribing the same function twice gives two independent subscriptions
      const entry = (e: ServerEvent) => listener(e);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    emit(e) {
      for (const l of [...listeners]) {
        try {
          l(e);
        } catch (err) {
          log.error('A server event listener failed', {
            event: e.type,
            error: err instanceof Error ? { message: err.message, stack: err.stack } : String(err),
          });
        }
      }
    },
  };
};
