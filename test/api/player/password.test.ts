import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import type { Envelope } from '../../support/player-socket.js';
import { startServer } from '../../support/server.js';

describe('a daemon that requires a password and has no mixer', () => {
  let mpd: MpdInstance;
  beforeAll(async () => {
    mpd = await startMpd({ password: 's3cret', mixer: 'none' });
  });
  afterAll(() => mpd?.dispose());

  const withPassword = (password: string) =>
    playerConfig(mpd, { access: 'open', connections: { default: { host: '127.0.0.1', port: mpd.port, password, timeout: '3 seconds' } } });

  it('sends the configured password after connecting; a status without volume gives volume null', async () => {
    const s = await startServer({ config: withPassword('s3cret') });
    try {
      const res = await s.request<Envelope>('POST', '/api/v1/player', { command: 'status' });
      expect(res.status).toBe(200);
      expect(res.body.type).toBe('StatusAnswer');
      expect(res.body.result!['volume']).toBeNull();
      const setvol = await s.request<Envelope>('POST', '/api/v1/player', { command: 'setvol 50' });
      expect(setvol.status).toBe(400);
      expect(setvol.body.ack).toMatchObject({ code: { value: 5 }, command: 'setvol' });
      const special = await s.request<Envelope>('GET', '/api/v1/playerspecial/status');
      expect(special.body.result!['volume']).toBeNull();
    } finally {
      await s.stop();
    }
  });

  it('without the password the daemon refuses the command (ACK auth)', async () => {
    const s = await startServer({ config: withPassword('') });
    try {
      const res = await s.request<Envelope>('POST', '/api/v1/player', { command: 'status' });
      expect(res.status).toBe(400);
      expect(res.body.ack).toMatchObject({ code: { value: 4, name: 'auth' }, command: 'status' });
    } finally {
      await s.stop();
    }
  });

  it('a wrong password is a 502 naming the refusal', async () => {
    const s = await startServer({ config: withPassword('wrong') });
    try {
      const res = await s.request<Envelope>('POST', '/api/v1/player', { command: 'status' });
      expect(res.status).toBe(502);
      expect(res.body.error?.message).toMatch(/password/);
    } finally {
      await s.stop();
    }
  });
});
