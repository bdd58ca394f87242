// What the browser keeps so an upload can be continued after a reload: one upload URL per
// file and target (the same file chosen again finds it; another share or a changed file
// does not), finished files kept until their batch is through, the share of a guest's
// unfinished send per upload link, and nothing older than two weeks.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ChosenFile,
  fingerprintOf,
  forgetGuestShare,
  heldUploads,
  rememberGuestShare,
  unfinishedEndpoints,
  unfinishedGuestShare,
  uploadStore,
} from '../../../renderer/src/lib/upload-resume.js';
import { MemoryStorage } from '../../support/memory-storage.js';

const picked = (name: string, size: number, lastModified = 1_700_000_000_000): ChosenFile => ({ name, file: { size, lastModified } });

const A = '/api/v2/alias/upload/share-a/files/tus';
const B = '/api/v2/alias/upload/share-b/files/tus';
const stored = (url: string) => ({ size: 10, metadata: {}, creationTime: 'now', uploadUrl: url, parallelUploadUrls: null });

beforeEach(() => {
  vi.stubGlobal('window', { localStorage: new MemoryStorage() });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('stored uploads', () => {
  it('finds the upload of the same file chosen again for the same share, and only there', async () => {
    const photo = picked('photo.jpg', 10);
    await uploadStore.addUpload(fingerprintOf(A, photo), stored('http://x/tus/1'));
    const again = await uploadStore.findUploadsByFingerprint(fingerprintOf(A, picked('photo.jpg', 10)));
    expect(again.map((u) => u.uploadUrl)).toEqual(['http://x/tus/1']);
    expect(await uploadStore.findUploadsByFingerprint(fingerprintOf(B, photo))).toEqual([]);
    // a changed file (other size or time) is another file
    expect(await uploadStore.findUploadsByFingerprint(fingerprintOf(A, picked('photo.jpg', 11)))).toEqual([]);
    expect(await uploadStore.findUploadsByFingerprint(fingerprintOf(A, picked('photo.jpg', 10, 1)))).toEqual([]);
    expect(heldUploads(A, [picked('other.jpg', 10), photo])).toEqual([false, true]);
  });

  it('keeps one upload per file: a newer one replaces the older', async () => {
    const fp = fingerprintOf(A, picked('photo.jpg', 10));
    await uploadStore.addUpload(fp, stored('http://x/tus/1'));
    await uploadStore.addUpload(fp, stored('http://x/tus/2'));
    expect((await uploadStore.findUploadsByFingerprint(fp)).map((u) => u.uploadUrl)).toEqual(['http://x/tus/2']);
  });

  it('names the shares with unfinished uploads; a finished file does not count, a forgotten one is gone', async () => {
    const one = fingerprintOf(A, picked('one.jpg', 10));
    const two = fingerprintOf(B, picked('two.jpg', 10));
    await uploadStore.addUpload(one, stored('http://x/tus/1'));
    await uploadStore.addUpload(two, stored('http://x/tus/2'));
    expect(unfinishedEndpoints().sort()).toEqual([A, B]);
    uploadStore.markDone(two);
    expect(unfinishedEndpoints()).toEqual([A]);
    // finished, the upload is still found (the same batch chosen again skips it)
    expect(await uploadStore.findUploadsByFingerprint(two)).toHaveLength(1);
    uploadStore.forget(one);
    expect(await uploadStore.findUploadsByFingerprint(one)).toEqual([]);
  });

  it('drops uploads older than two weeks', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2030, 0, 1));
    await uploadStore.addUpload(fingerprintOf(A, picked('old.jpg', 10)), stored('http://x/tus/1'));
    vi.setSystemTime(Date.UTC(2030, 0, 16));
    expect(unfinishedEndpoints()).toEqual([]);
    expect(await uploadStore.findAllUploads()).toEqual([]);
  });

  it('works without storage (blocked or private mode): nothing is kept, nothing fails', async () => {
    vi.stubGlobal('window', {
      get localStorage(): Storage {
        throw new Error('SecurityError');
      },
    });
    const fp = fingerprintOf(A, picked('photo.jpg', 10));
    await uploadStore.addUpload(fp, stored('http://x/tus/1'));
    expect(await uploadStore.findUploadsByFingerprint(fp)).toEqual([]);
  });
});

describe("a guest's unfinished send", () => {
  it('is remembered per upload link until it is through', () => {
    rememberGuestShare('link-1', 'share-a');
    expect(unfinishedGuestShare('link-1')).toBe('share-a');
    expect(unfinishedGuestShare('link-2')).toBeNull();
    forgetGuestShare('link-1');
    expect(unfinishedGuestShare('link-1')).toBeNull();
  });
});
