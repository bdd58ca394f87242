// The bound on a socket's waiting frames counts every frame waiting for its turn: frames
// refused at once (not a command, or `close`) that wait behind a pending access check
// count as much as commands, so a client cannot pile up refusal steps without end.
// Regression: the Errors for frames beyond the bound went out at once, before the
// answers of the frames sent earlier; every frame is now answered in the order sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../server/common/log.js';
import type { Envelope } from '../../../server/player/answers/convert.js';
import { DaemonConnection } from '../../../server/player/protocol/connection.js';
import { tcpDialer } from '../../../server/player/protocol/socket.js';
import { MAX_WAITING_COMMANDS, PlayerSession } from '../../../server/player/session.js';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { delay, eventually } from '../../support/system.js';

describe('a player session bounds the frames waiting behind an access check', () => {
  let mpd: MpdInstance;
  beforeAll(async () => {
    mpd = await startMpd();
  });
  afterAll(() => mpd?.dispose());

  it('refuses frames beyond the bound, refused ones included, and answers every frame in order once the check is done', async () => {
    const conn = await DaemonConnection.open({ dialer: tcpDialer, host: '127.0.0.1', port: mpd.port, password: '', timeoutMs: 3000 });
    const sent: Envelope[] = [];
    let allow!: () => void;
    const pending = new Promise<void>((r) => (allow = r));
    const session = new PlayerSession(conn, 3000, { send: (e) => sent.push(e), lost: () => undefined }, silentLogger, async () => {
      await pending;
      return { caller: { admin: false } };
    });
    try {
      const invalid = 200;
      session.command('ping');
      for (let i = 0; i < invalid; i++) session.command(i % 2 === 0 ? 'STATUS' : 'close');
      const tooMany = (e: Envelope) => e.type === 'Error' && /Too many commands are waiting/.test(JSON.stringify(e));
      const accepted = MAX_WAITING_COMMANDS - 1;
      await delay(100);
      // nothing goes out ahead of the ping's answer
      expect(sent).toEqual([]);

      allow();
      await eventually(() => sent.length >= invalid + 1);
      expect(sent).toHaveLength(invalid + 1);
      expect(sent[0]).toMatchObject({ success: true, type: 'Empty' });
      const refused = sent.slice(1, 1 + accepted);
      expect(refused.every((e) => e.type === 'Error' && !tooMany(e))).toBe(true);
      expect(sent.slice(1 + accepted).every(tooMany)).toBe(true);

      // with nothing waiting, frames are taken again
      session.command('ping');
      await eventually(() => sent.length >= invalid + 2);
      expect(sent.at(-1)).toMatchObject({ success: true, type: 'Empty' });
    } finally {
      session.close();
    }
  });
});
