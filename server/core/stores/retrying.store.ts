/**
 * Starting a store whose service may be down (an S3 endpoint). When it is
 * not reachable at start-up, Pier starts anyway with a stand-in: every
 * operation fails at once with `AppError('unavailable')` (502) and changes
 * nothing, while connecting is retried in the background, first after 1 s and
 * then twice as long each time, at most a minute apart. The first success puts
 * the real store in place; no restart is needed.
 *
 * Logged once per change of state (not reachable, a different failure, ready),
 * each failed retry only at debug level.
 */
import { Readable } from 'node:stream';
import { AppError } from '../../common/errors.js';
import type { Logger } from '../../common/log.js';
import { isUnavailable } from '../../common/unavailable.js';
import type { StoreType } from '../../config/types.js';
import type { BinaryStore } from './binary-store.js';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;

/** Whether a store operation failed because its service is not reachable (also while a stand-in waits). */
export const isStoreUnavailable = (e: unknown): boolean => (e instanceof AppError && e.code === 'unavailable') || isUnavailable(e);

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export interface RetryOptions {
  id: string;
  type: StoreType;
  /** connects and checks the store; rejects when it cannot */
  connect: () => Promise<BinaryStore>;
  log: Logger;
}

const standIn = (o: RetryOptions, firstError: unknown): BinaryStore => {
  const { id, type, log } = o;
  let real: BinaryStore | undefined;
  let lastError = firstError;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const retry = (delay: number): void => {
    timer = setTimeout(() => {
      timer = undefined;
      o.connect().then(
        (store) => {
          if (closed) return void store.close?.();
          real = store;
          log.info('Store ready', { store: id, type });
        },
        (e: unknown) => {
          const next = Math.min(delay * 2, MAX_RETRY_MS);
          if (messageOf(e) === messageOf(lastError)) log.debug('Store still not reachable', { store: id, retryInMs: next });
          else log.warn('Store still not ready; retrying in the background', { store: id, type, error: messageOf(e) });
          lastError = e;
          if (!closed) retry(next);
        },
      );
    }, delay);
    timer.unref();
  };
  retry(FIRST_RETRY_MS);

  const down = (): AppError => new AppError('unavailable', 'The file store is not reachable. Try again later.', { cause: lastError });
  const failing = async <T>(): Promise<T> => Promise.reject(down());

  return {
    id,
    type,
    create: (fileId, hint) => (real ? real.create(fileId, hint) : failing()),
    size: (ref) => (real ? real.size(ref) : failing()),
    append: (ref, offset, data, maxBytes) => (real ? real.append(ref, offset, data, maxBytes) : failing()),
    read: (ref, start, end) =>
      real
        ? real.read(ref, start, end)
        : new Readable({
            read() {
              this.destroy(down());
            },
          }),
    delete: (ref) => (real ? real.delete(ref) : failing()),
    async *list() {
      if (!real) throw down();
      yield* real.list();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await real?.close?.();
    },
  };
};

/**
 * Connects the store. When its service is not reachable (refused or timed-out
 * connections, server errors), resolves with a stand-in that keeps trying
 * (see above). Any other failure (refused credentials, a bad bucket name)
 * rejects: a retry cannot fix the configuration.
 */
export const connectOrRetry = async (o: RetryOptions): Promise<BinaryStore> => {
  try {
    const store = await o.connect();
    o.log.info('Store ready', { store: o.id, type: o.type });
    return store;
  } catch (e) {
    if (!isUnavailable(e)) throw e;
    o.log.warn('Store not reachable; retrying in the background', { store: o.id, type: o.type, error: messageOf(e) });
    return standIn(o, e);
  }
};
