/**
 * Builds the enabled binary stores of `backend.files` and picks the default
 * one. Called once by the composition root, after the migrations.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../../common/log.js';
import type { Config, StoreConfig } from '../../config/types.js';
import type { DialectName } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import type { BinaryStore, StoreRegistry } from './binary-store.js';
import { createDatabaseStore } from './database.store.js';
import { createFileSystemStore } from './filesystem.store.js';
import { connectOrRetry } from './retrying.store.js';

export interface StoreDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  /** `share.chunk-size`: the rows of the database store */
  chunkSize: number;
  log: Logger;
}

const createStore = async (id: string, cfg: StoreConfig, deps: StoreDeps): Promise<BinaryStore> => {
  switch (cfg.type) {
    case 'default-database':
      return createDatabaseStore({ id, db: deps.db, chunkSize: deps.chunkSize });
    case 'file-system':
      return createFileSystemStore({ id, directory: cfg.directory, cleanEmptyDirs: cfg.cleanEmptyDirs });
    case 's3': {
      // the AWS SDK is loaded only when an s3 store is configured
      const { createS3Store } = await import('./s3.store.js');
      const connect = () =>
        createS3Store({
          id,
          endpoint: cfg.endpoint,
          region: cfg.region,
          accessKey: cfg.accessKey,
          secretKey: cfg.secretKey,
          bucket: cfg.bucket,
          log: deps.log.child(id),
        });
      return connectOrRetry({ id, type: cfg.type, connect, log: deps.log });
    }
  }
};

/**
 * Creates every enabled store of `files` (the configuration has already
 * dropped disabled ones and checked that the default store is among them).
 * A store that cannot start (directory not writable, S3 credentials refused)
 * rejects with a message naming the store. An S3 endpoint that is not
 * reachable does not stop the start: that store answers "unavailable" until
 * a background retry reaches it (`retrying.store.ts`).
 */
export const createStoreRegistry = async (files: Config['backend']['files'], deps: StoreDeps): Promise<StoreRegistry> => {
  const stores = new Map<string, BinaryStore>();
  for (const [id, cfg] of Object.entries(files.stores)) {
    try {
      stores.set(id, await createStore(id, cfg, deps));
    } catch (e) {
      await Promise.all([...stores.values()].map((s) => s.close?.()));
      throw new Error(`The store "${id}" (${cfg.type}) cannot start: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    // an s3 store reports its own state
    if (cfg.type !== 's3') deps.log.info('Store ready', { store: id, type: cfg.type });
  }
  const defaultStore = stores.get(files.defaultStore);
  if (!defaultStore) throw new Error(`The default store "${files.defaultStore}" is not enabled.`);
  return {
    defaultStore,
    get: (id) => stores.get(id),
    all: () => [...stores.values()],
    close: async () => {
      await Promise.all([...stores.values()].map((s) => s.close?.()));
    },
  };
};
