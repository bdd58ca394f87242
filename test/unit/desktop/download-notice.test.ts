// The first complete download of a share gets a desktop notification whose click
// opens the owner's page of that share, where "Who got it" is.
import { describe, expect, it } from 'vitest';
import { noticeFor } from '../../../main/notifications.js';

describe('the download notice', () => {
  it('names the share, the file and the client, and opens the share', () => {
    expect(noticeFor({ type: 'share-downloaded', shareId: 's/1', shareName: 'Contract', fileName: 'contract.pdf', client: 'Safari on iPhone' })).toEqual({
      title: '“Contract” was downloaded',
      body: '“contract.pdf” was downloaded completely (Safari on iPhone). Click to see who got it.',
      path: '/app/upload/s%2F1',
    });
  });

  it('says the ZIP for a ZIP and does without a name or client', () => {
    expect(noticeFor({ type: 'share-downloaded', shareId: 'x', shareName: null, fileName: null, client: '' })).toEqual({
      title: 'Your share was downloaded',
      body: 'The ZIP was downloaded completely. Click to see who got it.',
      path: '/app/upload/x',
    });
  });
});
