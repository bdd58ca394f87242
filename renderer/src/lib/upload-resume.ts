// What the browser keeps so an upload survives a reload, a crash or a closed tab: per
// file, the tus upload URL under a fingerprint of the file (name, size, last change)
// and its target (the share's tus endpoint); per upload link, the share of a guest's
// unfinished send. Kept in localStorage; without it (private mode, blocked storage)
// uploads still work, they just start over after a reload.

/** A chosen file, as far as its fingerprint goes: its path in the selection, size and last change. */
export interface ChosenFile {
  name: string;
  file: Pick<File, 'size' | 'lastModified'>;
}

const FILE_PREFIX = 'pier.upload::';
const GUEST_PREFIX = 'pier.guest-send::';
/** Entries older than this are dropped: their uploads are gone or not wanted any more. */
const KEEP_MS = 14 * 24 * 60 * 60 * 1000;

/** An upload as tus-js-client stores it, plus when it was stored and whether it finished. */
export interface StoredUpload {
  size: number | null;
  metadata: Record<string, string>;
  creationTime: string;
  uploadUrl: string | null;
  parallelUploadUrls: string[] | null;
  urlStorageKey: string;
  savedAt?: number;
  done?: boolean;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function read<T>(key: string): T | null {
  try {
    const text = storage()?.getItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // full or blocked: the upload goes on, it only cannot be continued after a reload
  }
}

function remove(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // blocked storage holds nothing to remove
  }
}

function keys(prefix: string): string[] {
  const s = storage();
  if (!s) return [];
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k?.startsWith(prefix)) out.push(k);
  }
  return out;
}

/** The fingerprint of a chosen file for one target: the same file chosen again gives the same one. */
export function fingerprintOf(endpoint: string, picked: ChosenFile): string {
  return JSON.stringify([endpoint, picked.name, picked.file.size, picked.file.lastModified]);
}

/** The target a fingerprint belongs to. */
const endpointOf = (fingerprint: string): string | null => {
  try {
    const parsed = JSON.parse(fingerprint) as unknown;
    return Array.isArray(parsed) && typeof parsed[0] === 'string' ? parsed[0] : null;
  } catch {
    return null;
  }
};

/**
 * tus-js-client's URL storage: one entry per fingerprint (a newer one replaces the
 * older), so choosing the same file again finds exactly one upload to continue.
 */
export const uploadStore = {
  findAllUploads(): Promise<StoredUpload[]> {
    return Promise.resolve(this.entries().map(([, u]) => u));
  },
  findUploadsByFingerprint(fingerprint: string): Promise<StoredUpload[]> {
    const key = FILE_PREFIX + fingerprint;
    const u = read<StoredUpload>(key);
    return Promise.resolve(u && typeof u.uploadUrl === 'string' ? [{ ...u, urlStorageKey: key }] : []);
  },
  removeUpload(key: string): Promise<void> {
    remove(key);
    return Promise.resolve();
  },
  addUpload(fingerprint: string, upload: Omit<StoredUpload, 'urlStorageKey'>): Promise<string> {
    const key = FILE_PREFIX + fingerprint;
    write(key, { ...upload, savedAt: Date.now() });
    return Promise.resolve(key);
  },

  /** Every entry as [fingerprint, upload]; drops old and unreadable ones on the way. */
  entries(): [string, StoredUpload][] {
    const out: [string, StoredUpload][] = [];
    for (const key of keys(FILE_PREFIX)) {
      const u = read<StoredUpload>(key);
      if (!u || typeof u.uploadUrl !== 'string' || Date.now() - (u.savedAt ?? 0) > KEEP_MS) remove(key);
      else out.push([key.slice(FILE_PREFIX.length), { ...u, urlStorageKey: key }]);
    }
    return out;
  },
  /** Notes that the upload under `fingerprint` is complete (it is kept until its whole batch is). */
  markDone(fingerprint: string): void {
    const key = FILE_PREFIX + fingerprint;
    const u = read<StoredUpload>(key);
    if (u) write(key, { ...u, done: true });
  },
  forget(fingerprint: string): void {
    remove(FILE_PREFIX + fingerprint);
  },
  /** The stored upload of a fingerprint, if any. */
  get(fingerprint: string): StoredUpload | null {
    const u = read<StoredUpload>(FILE_PREFIX + fingerprint);
    return u && typeof u.uploadUrl === 'string' ? u : null;
  },
};

/** Which of the chosen files have an upload to continue at `endpoint`. */
export function heldUploads(endpoint: string, files: ChosenFile[]): boolean[] {
  return files.map((f) => uploadStore.get(fingerprintOf(endpoint, f)) !== null);
}

/** The endpoints (one per share) with an upload that did not finish. */
export function unfinishedEndpoints(): string[] {
  const out = new Set<string>();
  for (const [fp, u] of uploadStore.entries()) {
    const endpoint = endpointOf(fp);
    if (endpoint && !u.done) out.add(endpoint);
  }
  return [...out];
}

/** Drops every stored upload of `endpoint` (its share is gone). */
export function forgetEndpoint(endpoint: string): void {
  for (const [fp] of uploadStore.entries()) if (endpointOf(fp) === endpoint) uploadStore.forget(fp);
}

interface GuestSend {
  shareId: string;
  savedAt: number;
}

/** The share of a guest's send through upload link `aliasId` that has not finished. */
export function unfinishedGuestShare(aliasId: string): string | null {
  const g = read<GuestSend>(GUEST_PREFIX + aliasId);
  if (!g || typeof g.shareId !== 'string' || Date.now() - g.savedAt > KEEP_MS) {
    remove(GUEST_PREFIX + aliasId);
    return null;
  }
  return g.shareId;
}

export function rememberGuestShare(aliasId: string, shareId: string): void {
  write(GUEST_PREFIX + aliasId, { shareId, savedAt: Date.now() } satisfies GuestSend);
}

export function forgetGuestShare(aliasId: string): void {
  remove(GUEST_PREFIX + aliasId);
}
