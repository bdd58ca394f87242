import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { LogFormat } from '../../../server/config/types.js';
import { createLogger, levelFor } from '../../../server/logging/logger.js';

const capture = () => {
  let text = '';
  const out = new Writable({
    write(chunk: Buffer, _e, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { out, text: () => text };
};

const settings = (format: LogFormat) => ({
  format,
  minimumLevel: 'Warn' as const,
  levels: { pier: 'Info' as const, 'pier.db': 'Error' as const, 'pier.http.tus': 'Debug' as const },
});

describe('logging', () => {
  it('finds the level of the longest matching logger prefix', () => {
    const s = settings('Json');
    expect(levelFor('pier', s)).toBe('Info');
    expect(levelFor('pier.http', s)).toBe('Info');
    expect(levelFor('pier.db', s)).toBe('Error');
    expect(levelFor('pier.db.migrations', s)).toBe('Error');
    expect(levelFor('pier.http.tus', s)).toBe('Debug');
    expect(levelFor('pierx', s)).toBe('Warn');
    expect(levelFor('other', s)).toBe('Warn');
  });

  it('writes JSON lines with level, logger, message and fields, honouring per-logger levels', () => {
    const c = capture();
    const log = createLogger(settings('Json'), c.out);
    log.info('hello', { n: 1 });
    log.debug('not shown');
    log.child('db').warn('db warning dropped');
    log.child('db').error('db error');
    log.child('http').child('tus').debug('tus debug');
    const lines = c.text().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['level'], l['logger'], l['msg']])).toEqual([
      ['info', 'pier', 'hello'],
      ['error', 'pier.db', 'db error'],
      ['debug', 'pier.http.tus', 'tus debug'],
    ]);
    expect(lines[0]!['n']).toBe(1);
  });

  it('writes logfmt', () => {
    const c = capture();
    createLogger(settings('Logfmt'), c.out).child('auth').warn('two words', { user: 'a b', nested: { x: 1 } });
    expect(c.text()).toMatch(/^level=warn time=\S+ logger=pier\.auth user="a b" nested="\{\\"x\\":1\}" msg="two words"\n$/);
  });

  it('writes readable lines: Fancy with colours, Plain without', () => {
    const fancy = capture();
    createLogger(settings('Fancy'), fancy.out).info('started', { port: 9090 });
    expect(fancy.text()).toContain('\u001b[');
    expect(fancy.text()).toContain('pier: started');
    const plain = capture();
    createLogger(settings('Plain'), plain.out).info('started', { port: 9090 });
    expect(plain.text()).not.toContain('\u001b[');
    expect(plain.text()).toMatch(/INFO.*pier: started/);
    expect(plain.text()).toContain('port: 9090');
  });
});
