// tus uploads of a list of files into one share, one file after the other, with
// per-file and total progress, speed, pause/resume and the configured retries and
// chunk size. tus-js-client is loaded on first use.
import { computed, reactive, ref } from 'vue';
import type { DetailedError, HttpRequest, Upload } from 'tus-js-client';
import { resultMessage } from '../lib/errors';
import { useSettingsStore } from '../stores/settings';

/** A file chosen by the user, with its path inside a dropped folder ("" for loose files). */
export interface PickedFile {
  file: File;
  /** the name sent to the server: `folder/sub/name.ext` for files from folders */
  name: string;
}

export type UploadState = 'waiting' | 'uploading' | 'paused' | 'done' | 'failed';

export interface UploadItem {
  key: number;
  name: string;
  size: number;
  sent: number;
  state: UploadState;
  error: string | null;
}

export interface UploadTarget {
  /** the tus creation URL, e.g. `/api/v2/sec/upload/<shareId>/files/tus` */
  endpoint: string;
  /** headers for every request, evaluated per request (e.g. a renewed token) */
  headers: () => Record<string, string>;
}

type TusUpload = typeof Upload;

let nextKey = 1;

/** One upload session (a list of files into one share). */
export function useUploader() {
  const settings = useSettingsStore();
  const items = reactive<UploadItem[]>([]);
  const paused = ref(false);
  const running = ref(false);
  const speed = ref(0);
  let current: Upload | null = null;
  let samples: { t: number; sent: number }[] = [];
  let wake: (() => void) | null = null;

  const totalSize = computed(() => items.reduce((n, i) => n + i.size, 0));
  const totalSent = computed(() => items.reduce((n, i) => n + i.sent, 0));
  const failed = computed(() => items.filter((i) => i.state === 'failed').length);
  const finished = computed(() => items.length > 0 && items.every((i) => i.state === 'done' || i.state === 'failed'));

  function sample(): void {
    const now = performance.now();
    samples.push({ t: now, sent: totalSent.value });
    samples = samples.filter((s) => now - s.t <= 4000);
    const first = samples[0]!;
    const dt = (now - first.t) / 1000;
    speed.value = dt > 0.25 ? (totalSent.value - first.sent) / dt : speed.value;
  }

  function messageOf(error: Error | DetailedError): string {
    const res = 'originalResponse' in error ? error.originalResponse : null;
    if (res) {
      const body = res.getBody();
      try {
        const parsed = JSON.parse(body) as { message?: unknown; code?: unknown };
        if (typeof parsed.message === 'string') return resultMessage({ message: parsed.message, code: typeof parsed.code === 'string' ? parsed.code : undefined });
      } catch {
        // plain-text answer
      }
      return body ? `${res.getStatus()}: ${body}` : String(res.getStatus());
    }
    return error.message;
  }

  async function uploadOne(Upload: TusUpload, item: UploadItem, picked: PickedFile, target: UploadTarget): Promise<void> {
    await new Promise<void>((resolve) => {
      const config = settings.config;
      const upload = new Upload(picked.file, {
        endpoint: target.endpoint,
        chunkSize: config.chunkSize > 0 ? config.chunkSize : Infinity,
        retryDelays: config.retryDelays,
        storeFingerprintForResuming: false,
        removeFingerprintOnSuccess: true,
        metadata: { filename: picked.name, filetype: picked.file.type || 'application/octet-stream' },
        headers: {
          'Service-File-Name': encodeURIComponent(picked.name),
          'Service-File-Length': String(picked.file.size),
          'Service-File-Type': picked.file.type || 'application/octet-stream',
        },
        onBeforeRequest: (req: HttpRequest) => {
          for (const [k, v] of Object.entries(target.headers())) req.setHeader(k, v);
        },
        onProgress: (sent) => {
          item.sent = sent;
          sample();
        },
        onSuccess: () => {
          item.sent = item.size;
          item.state = 'done';
          resolve();
        },
        onError: (error) => {
          item.state = 'failed';
          item.error = messageOf(error);
          resolve();
        },
      });
      current = upload;
      item.state = 'uploading';
      upload.start();
    });
    current = null;
  }

  /**
   * Uploads the files one after the other; resolves when every file is done or failed.
   * Pausing in between waits here until `resume()`.
   */
  async function run(files: PickedFile[], target: UploadTarget): Promise<{ failed: number }> {
    items.splice(0, items.length, ...files.map((f) => ({ key: nextKey++, name: f.name, size: f.file.size, sent: 0, state: 'waiting' as UploadState, error: null })));
    running.value = true;
    paused.value = false;
    samples = [];
    speed.value = 0;
    try {
      const { Upload } = await import('tus-js-client');
      for (let i = 0; i < files.length; i++) {
        while (paused.value) await new Promise<void>((r) => (wake = r));
        await uploadOne(Upload, items[i]!, files[i]!, target);
      }
    } finally {
      running.value = false;
      speed.value = 0;
    }
    return { failed: failed.value };
  }

  /** Stops sending; the current file continues from the server's offset on `resume()`. */
  function pause(): void {
    if (!running.value || paused.value) return;
    paused.value = true;
    speed.value = 0;
    const item = items.find((i) => i.state === 'uploading');
    if (item) item.state = 'paused';
    void current?.abort(false);
  }

  function resume(): void {
    if (!paused.value) return;
    paused.value = false;
    samples = [];
    const item = items.find((i) => i.state === 'paused');
    if (item && current) {
      item.state = 'uploading';
      current.start();
    }
    wake?.();
    wake = null;
  }

  /** Stops everything (leaving the page). */
  function cancel(): void {
    void current?.abort(false);
    paused.value = false;
  }

  return { items, paused, running, speed, totalSize, totalSent, failed, finished, run, pause, resume, cancel };
}

export type Uploader = ReturnType<typeof useUploader>;
