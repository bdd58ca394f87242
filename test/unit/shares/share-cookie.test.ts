import { describe, expect, it } from 'vitest';
import { createShareCookieSigner } from '../../../server/core/shares/share-cookie.js';

describe('the public share cookie', () => {
  const signer = createShareCookieSigner(new Uint8Array(32).fill(7));
  const now = 1_000_000;

  it('is valid for its share until it expires', () => {
    const v = signer.sign('pid-1', 'hash', now + 1000);
    expect(v).not.toContain('hash');
    expect(signer.verify(v, 'pid-1', 'hash', now)).toBe(true);
    expect(signer.verify(v, 'pid-1', 'hash', now + 1000)).toBe(false);
  });

  it('is useless for another share, after a password change, with another secret, or tampered', () => {
    const v = signer.sign('pid-1', null, now + 1000);
    expect(signer.verify(v, 'pid-2', null, now)).toBe(false);
    expect(signer.verify(v, 'pid-1', 'new-hash', now)).toBe(false);
    expect(createShareCookieSigner(new Uint8Array(32).fill(8)).verify(v, 'pid-1', null, now)).toBe(false);
    const [exp, mac] = v.split('.') as [string, string];
    expect(signer.verify(`${Number(exp) + 1}.${mac}`, 'pid-1', null, now)).toBe(false);
    for (const bad of [undefined, '', 'x', `${exp}.`, `${exp}.${mac}x`]) expect(signer.verify(bad, 'pid-1', null, now)).toBe(false);
  });
});
