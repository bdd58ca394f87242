// tus uploads of a list of files into one share, one file after the other: per-file and
// total progress with speed and time remaining, pause/resume, cancel per file and for
// all, and uploads that survive real life. Each file's upload URL is kept in the browser
// (lib/upload-resume.ts), so the same file chosen again for the same share continues
// from the server's offset after a reload or a closed tab. A dropped connection is
// retried with the configured delays (a countdown and "Retry now"); after the last one
// the file keeps its turn and is tried again as often as the last retry waited (5-30 s;
// at once on "Retry", or when the browser is back online), so it continues by itself
// when the server is back. The progress never goes backwards: while retrying it shows
// what was sent, and a continued upload holds the bar until it passes that point again.
// A request that makes no progress for a while counts as a dropped connection.
// tus-js-client is loaded on first use.
import { computed, onScopeDispose, reactive, ref } from 'vue';
import type { DetailedError, HttpRequest, HttpResponse, Upload } from 'tus-js-client';
import { i18n } from '../i18n';
import { failureOf } from '../api/http';
import { resultMessage } from '../lib/errors';
import { secondsLeft, SpeedMeter } from '../lib/upload-progress';
import { fingerprintOf, uploadStore } from '../lib/upload-resume';
import { useSettingsStore } from '../stores/settings';

/** A file chosen by the user, with its path inside a dropped folder ("" for loose files). */
export interface PickedFile {
  file: File;
  /** the name sent to the server: `folder/sub/name.ext` for files from folders */
  name: string;
}

/** `offline`: the retries are used up; the file keeps its turn until the server is reachable again. */
export type UploadState = 'waiting' | 'uploading' | 'paused' | 'retrying' | 'offline' | 'done' | 'failed' | 'cancelled';

export interface UploadItem {
  key: number;
  name: string;
  size: number;
  /** bytes sent, never less than shown before: a lost request keeps it, a continued upload passes it again */
  sent: number;
  state: UploadState;
  /** why the file failed, in the user's language */
  error: string | null;
  /** the server's offset when the upload was continued rather than started, else null */
  resumedFrom: number | null;
}

export interface UploadTarget {
  /** the tus creation URL, e.g. `/api/v2/sec/upload/<shareId>/files/tus` */
  endpoint: string;
  /** headers for every request, evaluated per request (e.g. a renewed token) */
  headers: () => Record<string, string>;
}

/** `ok`; `retrying`: a connection was lost and the next attempt is counted down; `unreachable`: the retries are used up. */
export type Connection = 'ok' | 'retrying' | 'unreachable';

type TusModule = typeof import('tus-js-client');

/** No byte moving for this long counts as a lost connection. */
const STALL_MS = 30_000;
/** With the retries used up, the server is tried again as often as the last retry waited, within these bounds. */
const PROBE_MS = { min: 5_000, max: 30_000 };

interface Runtime {
  picked: PickedFile;
  fingerprint: string;
  upload: Upload | null;
  /** the server's offset as last confirmed */
  acked: number;
  ackedAtLastError: number;
  attempt: number;
  timer: ReturnType<typeof setTimeout> | null;
  lastMove: number;
  /** resolves the file's turn in the queue */
  settle: (() => void) | null;
}

let nextKey = 1;

/** Whether the file is still to be sent (not done, cancelled or failed for good). */
export const isOpen = (i: UploadItem): boolean => i.state !== 'done' && i.state !== 'cancelled' && i.state !== 'failed';

/** One upload session (a list of files into one share). */
export function useUploader() {
  const settings = useSettingsStore();
  const t = i18n.global.t;
  const items = reactive<UploadItem[]>([]);
  const paused = ref(false);
  const running = ref(false);
  const connection = ref<Connection>('ok');
  /** bytes per second over the last seconds; null while unknown or not sending */
  const speed = ref<number | null>(null);
  const now = ref(Date.now());
  const retryAt = ref<number | null>(null);
  const meter = new SpeedMeter();
  const runtimes = new Map<number, Runtime>();
  let tus: TusModule | null = null;
  let target: UploadTarget | null = null;
  let stopped = false;
  let wake: (() => void) | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;

  const counted = computed(() => items.filter((i) => i.state !== 'cancelled'));
  const totalSize = computed(() => counted.value.reduce((n, i) => n + i.size, 0));
  const totalSent = computed(() => counted.value.reduce((n, i) => n + i.sent, 0));
  const failed = computed(() => items.filter((i) => i.state === 'failed').length);
  const left = computed(() => secondsLeft(totalSize.value - totalSent.value, speed.value));
  /** whole seconds until the next attempt while `connection` is `retrying` */
  const retryIn = computed(() => (retryAt.value === null ? 0 : Math.max(0, Math.ceil((retryAt.value - now.value) / 1000))));

  const rt = (item: UploadItem): Runtime => runtimes.get(item.key)!;

  function measure(): void {
    const at = Date.now();
    now.value = at;
    const sending = items.some((i) => i.state === 'uploading');
    if (!sending) {
      speed.value = null;
      return;
    }
    meter.add(at, totalSent.value);
    speed.value = meter.rate(at);
  }

  function tick(): void {
    measure();
    for (const item of items) {
      const r = rt(item);
      if (item.state === 'uploading' && r.upload?.url && now.value - r.lastMove > STALL_MS) {
        void r.upload.abort(false);
        retryLater(item, false);
      }
    }
  }

  function messageOf(error: Error | DetailedError): string {
    const res = 'originalResponse' in error ? error.originalResponse : null;
    if (!res) return t('shares.upload.error.read');
    const status = res.getStatus();
    if (status === 413) return t('shares.upload.error.noRoom');
    if (status === 404) return t('shares.upload.error.gone');
    if (status === 401 || status === 403) return t('shares.upload.error.denied');
    const body = res.getBody()?.trim() ?? '';
    // a JSON result, or a plain-text answer
    const failure = failureOf(body);
    if (failure.message !== undefined) return resultMessage({ message: failure.message, code: failure.code, field: failure.field });
    return body || t('common.errors.server', { message: String(status) });
  }

  /** The next attempt after the configured delay (`quiet`: without showing the connection as lost); none left: unreachable. */
  function retryLater(item: UploadItem, quiet: boolean): void {
    const r = rt(item);
    if (r.acked > r.ackedAtLastError) r.attempt = 0;
    r.ackedAtLastError = r.acked;
    meter.reset();
    const delays = settings.config.retryDelays;
    if (r.attempt >= delays.length) {
      item.state = 'offline';
      connection.value = 'unreachable';
      retryAt.value = null;
      // keep knocking: the upload continues by itself once the server answers
      const every = Math.min(PROBE_MS.max, Math.max(PROBE_MS.min, delays[delays.length - 1] ?? 0));
      r.timer = setTimeout(() => probe(item), every);
      return;
    }
    const delay = delays[r.attempt++]!;
    item.state = 'retrying';
    if (!quiet) {
      connection.value = 'retrying';
      now.value = Date.now();
      retryAt.value = now.value + delay;
    }
    r.timer = setTimeout(() => begin(item), delay);
  }

  /** One more attempt of a file that is waiting for the server, keeping its place while the server stays away. */
  function probe(item: UploadItem): void {
    const r = rt(item);
    r.timer = null;
    if (item.state !== 'offline' || stopped || paused.value) return;
    void begin(item);
  }

  function onError(item: UploadItem, error: Error | DetailedError): void {
    if (item.state !== 'uploading') return;
    const status = 'originalResponse' in error ? (error.originalResponse?.getStatus() ?? 0) : 0;
    const fromRequest = 'originalRequest' in error && error.originalRequest != null;
    if (fromRequest && (status === 0 || status >= 500 || status === 409 || status === 423)) {
      retryLater(item, status === 409 || status === 423);
      return;
    }
    item.state = 'failed';
    item.error = messageOf(error);
    rt(item).settle?.();
  }

  function onResponse(item: UploadItem, req: HttpRequest, res: HttpResponse): void {
    const r = rt(item);
    r.lastMove = Date.now();
    if (connection.value !== 'ok' && res.getStatus() < 500) {
      connection.value = 'ok';
      retryAt.value = null;
    }
    const offset = Number(res.getHeader('Upload-Offset'));
    if (!res.getHeader('Upload-Offset') || !Number.isFinite(offset)) return;
    r.acked = offset;
    if (req.getMethod() === 'HEAD') {
      // what an earlier page or attempt left on the server: no part of the speed
      meter.reset();
      item.sent = Math.max(item.sent, offset);
      if (offset > 0) item.resumedFrom = offset;
    }
  }

  function create(item: UploadItem): Upload {
    const { picked, fingerprint } = rt(item);
    const config = settings.config;
    const type = picked.file.type || 'application/octet-stream';
    return new tus!.Upload(picked.file, {
      endpoint: target!.endpoint,
      chunkSize: config.chunkSize > 0 ? config.chunkSize : Infinity,
      // retries are counted here, to show them
      retryDelays: null,
      urlStorage: uploadStore,
      fingerprint: () => Promise.resolve(fingerprint),
      storeFingerprintForResuming: true,
      // kept until the whole batch is through, so choosing the batch again skips finished files
      removeFingerprintOnSuccess: false,
      metadata: { filename: picked.name, filetype: type },
      headers: { 'Service-File-Name': encodeURIComponent(picked.name), 'Service-File-Length': String(picked.file.size), 'Service-File-Type': type },
      onBeforeRequest: (req: HttpRequest) => {
        for (const [k, v] of Object.entries(target!.headers())) req.setHeader(k, v);
      },
      onAfterResponse: (req, res) => onResponse(item, req, res),
      onProgress: (sent) => {
        if (item.state !== 'uploading') return;
        // a continued upload passes again what the page already showed; the bar holds until then
        item.sent = Math.max(item.sent, sent);
        rt(item).lastMove = Date.now();
        measure();
      },
      onSuccess: () => {
        item.sent = item.size;
        item.state = 'done';
        uploadStore.markDone(fingerprint);
        rt(item).settle?.();
      },
      onError: (error) => onError(item, error),
    });
  }

  /** Starts or continues the file's upload (a stored upload URL continues at the server's offset). */
  async function begin(item: UploadItem): Promise<void> {
    const r = rt(item);
    r.timer = null;
    if (stopped || paused.value || !isOpen(item)) return;
    item.state = 'uploading';
    item.error = null;
    r.lastMove = Date.now();
    r.upload ??= create(item);
    const upload = r.upload;
    if (!upload.url) {
      const previous = await upload.findPreviousUploads();
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
    }
    if (item.state === 'uploading' && !stopped) upload.start();
  }

  /**
   * Uploads the files one after the other; resolves when every file is done, cancelled
   * or failed for good, or when `cancel()` stopped the batch (`stopped`: the page is left,
   * nothing is through). A file the server cannot be reached for keeps its turn until
   * `retryFailed()` or `cancelAll()`.
   */
  async function run(files: PickedFile[], into: UploadTarget): Promise<{ done: number; failed: number; stopped: boolean }> {
    target = into;
    stopped = false;
    runtimes.clear();
    items.splice(0, items.length, ...files.map((f) => ({ key: nextKey++, name: f.name, size: f.file.size, sent: 0, state: 'waiting' as UploadState, error: null, resumedFrom: null })));
    items.forEach((item, i) => {
      const picked = files[i]!;
      runtimes.set(item.key, { picked, fingerprint: fingerprintOf(into.endpoint, picked), upload: null, acked: 0, ackedAtLastError: 0, attempt: 0, timer: null, lastMove: 0, settle: null });
    });
    running.value = true;
    paused.value = false;
    connection.value = 'ok';
    meter.reset();
    listen(true);
    try {
      tus ??= await import('tus-js-client');
      for (const item of items) {
        while (paused.value && !stopped) await new Promise<void>((r) => (wake = r));
        if (stopped) break;
        if (!isOpen(item)) continue;
        await new Promise<void>((settle) => {
          rt(item).settle = settle;
          void begin(item);
        });
      }
    } finally {
      running.value = false;
      speed.value = null;
      listen(false);
    }
    // the batch is through: a file chosen again from now on is a new upload
    if (!stopped) for (const r of runtimes.values()) uploadStore.forget(r.fingerprint);
    return { done: items.filter((i) => i.state === 'done').length, failed: failed.value, stopped };
  }

  /** Stops sending; the current file continues from the server's offset on `resume()`. */
  function pause(): void {
    if (!running.value || paused.value) return;
    paused.value = true;
    for (const item of items) {
      if (item.state !== 'uploading' && item.state !== 'retrying') continue;
      const r = rt(item);
      if (r.timer) clearTimeout(r.timer);
      void r.upload?.abort(false);
      item.state = 'paused';
    }
    connection.value = 'ok';
    retryAt.value = null;
    measure();
  }

  function resume(): void {
    if (!paused.value) return;
    paused.value = false;
    meter.reset();
    for (const item of items) if (item.state === 'paused') void begin(item);
    wake?.();
    wake = null;
  }

  /** The waiting retry starts now. */
  function retryNow(): void {
    for (const item of items) {
      const r = rt(item);
      if (item.state !== 'retrying' || !r.timer) continue;
      clearTimeout(r.timer);
      void begin(item);
    }
  }

  /** Files that failed for want of a connection start again, with the full retries. */
  function retryFailed(): void {
    connection.value = 'ok';
    for (const item of items) {
      if (item.state !== 'offline') continue;
      const r = rt(item);
      if (r.timer) clearTimeout(r.timer);
      r.attempt = 0;
      void begin(item);
    }
  }

  /** Cancels one file: stops it, removes what reached the server and forgets it. */
  function cancelItem(item: UploadItem): void {
    if (!isOpen(item)) return;
    const r = rt(item);
    const url = r.upload?.url ?? uploadStore.get(r.fingerprint)?.uploadUrl ?? null;
    item.state = 'cancelled';
    if (r.timer) clearTimeout(r.timer);
    void r.upload?.abort(false);
    uploadStore.forget(r.fingerprint);
    if (url && tus && target) {
      const headers = target.headers;
      tus.Upload.terminate(url, { headers: headers(), retryDelays: null }).catch(() => undefined);
    }
    if (!items.some((i) => i.state === 'offline')) connection.value = 'ok';
    r.settle?.();
  }

  function cancelAll(): void {
    for (const item of items) cancelItem(item);
    paused.value = false;
    wake?.();
    wake = null;
  }

  /** Stops everything without removing anything (leaving the page): the uploads can be continued later. */
  function cancel(): void {
    stopped = true;
    for (const item of items) {
      const r = rt(item);
      if (r.timer) clearTimeout(r.timer);
      void r.upload?.abort(false);
      r.settle?.();
    }
    wake?.();
    wake = null;
    listen(false);
  }

  const warn = (e: BeforeUnloadEvent) => {
    e.preventDefault();
    e.returnValue = '';
  };
  const back = () => {
    if (connection.value === 'unreachable' && document.visibilityState === 'visible') retryFailed();
  };

  /** While files are under way: the warning before leaving, the return of the network, the clock. */
  function listen(on: boolean): void {
    if (on) {
      window.addEventListener('beforeunload', warn);
      window.addEventListener('online', back);
      document.addEventListener('visibilitychange', back);
      ticker ??= setInterval(tick, 1000);
      return;
    }
    window.removeEventListener('beforeunload', warn);
    window.removeEventListener('online', back);
    document.removeEventListener('visibilitychange', back);
    if (ticker) clearInterval(ticker);
    ticker = null;
  }

  onScopeDispose(cancel);

  return {
    items,
    paused,
    running,
    connection,
    speed,
    retryIn,
    secondsLeft: left,
    totalSize,
    totalSent,
    failed,
    run,
    pause,
    resume,
    retryNow,
    retryFailed,
    cancelItem,
    cancelAll,
    cancel,
  };
}

export type Uploader = ReturnType<typeof useUploader>;
