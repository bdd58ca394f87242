import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../server/common/durations.js';
import { parseSize } from '../../../server/common/sizes.js';
import { coerceLeaf } from '../../../server/config/coerce.js';
import { duration, ints, size } from '../../../server/config/spec-kit.js';
import { load, loadErrors } from './helpers.js';

describe('sizes', () => {
  it.each([
    ['1.5G', 1610612736],
    ['512K', 524288],
    ['10M', 10485760],
    ['4M', 4194304],
    ['2T', 2 * 1024 ** 4],
    ['100', 100],
    [100, 100],
    ['0', 0],
    ['10 MiB', 10485760],
    ['512kb', 524288],
  ] as const)('%s is %d bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each(['lots', '', '-1', '1.5X', '10 M B', 'M', '1e3G'])('%j is not a size', (text) => {
    expect(parseSize(text)).toBeUndefined();
  });
});

describe('durations', () => {
  it.each([
    ['4 minutes', 240_000],
    ['14 days', 14 * 86_400_000],
    ['8 minutes', 480_000],
    ['10 seconds', 10_000],
    ['1 minute', 60_000],
    ['365 days', 365 * 86_400_000],
    ['10s', 10_000],
    ['1.5 h', 5_400_000],
    ['2 weeks', 14 * 86_400_000],
    ['1500', 1500],
    [1500, 1500],
  ] as const)('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['soon', '', '5 fortnights', '-3 days', 'minutes'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('leaf coercion', () => {
  it('applies minimums to sizes, durations and list items', () => {
    expect(coerceLeaf(size('1K', 'x', { min: 1 }), '0')).toMatchObject({ ok: false });
    expect(coerceLeaf(duration('1 s', 'x', { min: 1 }), '0 s')).toMatchObject({ ok: false });
    expect(coerceLeaf(ints([], 'x', { min: 0 }), '1,-2')).toMatchObject({ ok: false });
    expect(coerceLeaf(ints([], 'x'), '')).toEqual({ ok: true, value: [] });
  });

  it('loads sizes and durations written in the file or the environment', async () => {
    const { config } = await load({
      env: { SERVICE_BACKEND_SHARE_CHUNK_SIZE: '1M', SERVICE_BACKEND_CLEANUP_INTERVAL: '3600000', SERVICE_RATE_LIMIT_WINDOW: '30 seconds' },
    });
    expect(config.backend.share.chunkSize).toBe(1048576);
    expect(config.backend.cleanup.interval).toBe(3_600_000);
    expect(config.rateLimit.window).toBe(30_000);
  });

  it('names the key and the garbage value', async () => {
    const e = await loadErrors({ env: { SERVICE_BACKEND_SIGNUP_INVITE_TIME: 'forever', SERVICE_FILE_DOWNLOAD_DOWNLOAD_CHUNK_SIZE: 'big' } });
    expect(e.errors).toEqual([
      'service.restserver.file-download.download-chunk-size: expected a size such as "512K", "1.5G" or bytes above 0, got "big"',
      'service.restserver.backend.signup.invite-time: expected a duration such as "4 minutes" or milliseconds above 0, got "forever"',
    ]);
  });
});
