import { describe, expect, it } from 'vitest';
import { framingOf } from '../../../server/player/protocol/command-line.js';
import { parseAck, ProtocolError, quoteArg, ReplyReader, splitLine, type Reply } from '../../../server/player/protocol/reply.js';

/** The replies in `chunks`, each announced as the answer of `command`. */
const readOf = (command: string, ...chunks: Array<string | Buffer>): Reply[] => {
  const out: Reply[] = [];
  const r = new ReplyReader((x) => out.push(x));
  for (let i = 0; i < 8; i++) r.expect(framingOf(command));
  for (const c of chunks) r.push(Buffer.isBuffer(c) ? c : Buffer.from(c, 'utf8'));
  return out;
};
const read = (...chunks: Array<string | Buffer>): Reply[] => readOf('status', ...chunks);
const readBinary = (...chunks: Array<string | Buffer>): Reply[] => readOf('albumart "a" 0', ...chunks);

describe('the reply reader (daemon output recorded from mpd 0.23)', () => {
  it('splits lines at the first colon only: values with ": " and empty values survive', () => {
    const [r] = read('Title: Intro: Part 1: Live\nDate: \nComment:\nAlbum: X\nOK\n');
    expect(r).toEqual({
      ok: true,
      lines: [
        { key: 'Title', value: 'Intro: Part 1: Live' },
        { key: 'Date', value: '' },
        { key: 'Comment', value: '' },
        { key: 'Album', value: 'X' },
      ],
    });
    expect(splitLine('file: a:b')).toEqual({ key: 'file', value: 'a:b' });
    expect(splitLine('list_OK')).toEqual({ key: 'list_OK', value: '' });
  });

  it('keeps repeated keys (multi-value tags) in order', () => {
    const [r] = read('file: x.ogg\nArtist: Artist Three\nArtist: Artist Four\nOK\n');
    expect(r!.lines.filter((l) => l.key === 'Artist').map((l) => l.value)).toEqual(['Artist Three', 'Artist Four']);
  });

  it('ends a reply only at a line equal to OK or starting with "ACK ", never at a value ending in OK', () => {
    const replies = read('Title: Not OK\nName: OK computer\nAlbum: ACK\nOK\n');
    expect(replies).toHaveLength(1);
    expect(replies[0]!.lines).toHaveLength(3);
  });

  it('assembles replies split anywhere across chunks, also several in one chunk', () => {
    const text = 'volume: 100\nstate: play\nOK\nsongs: 1\nplaytime: 2\nOK\n';
    for (let cut = 1; cut < text.length; cut++) {
      const replies = read(text.slice(0, cut), text.slice(cut));
      expect(replies, `cut at ${cut}`).toHaveLength(2);
      expect(replies[1]).toEqual({ ok: true, lines: [{ key: 'songs', value: '1' }, { key: 'playtime', value: '2' }] });
    }
  });

  it('reads binary chunks by length, even when the bytes contain newlines, "OK" lines or invalid UTF-8', () => {
    const payload = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0a, 0x4f, 0x4b, 0x0a, 0x41, 0x43, 0x4b, 0x20, 0xff, 0x00]);
    const whole = Buffer.concat([Buffer.from(`size: 4525\ntype: image/png\nbinary: ${payload.length}\n`), payload, Buffer.from('\nOK\n')]);
    for (let cut = 1; cut < whole.length; cut++) {
      const replies = readBinary(whole.subarray(0, cut), whole.subarray(cut));
      expect(replies, `cut at ${cut}`).toHaveLength(1);
      const bin = replies[0]!.lines.find((l) => l.key === 'binary')!;
      expect(bin.value).toBe(String(payload.length));
      expect(bin.data?.equals(payload)).toBe(true);
    }
  });

  // Regression: any `binary: N` line was read as binary framing, so a song with a comment
  // key named `binary` made readcomments wait for bytes that never came (504).
  it('reads binary chunks only in the answers of albumart and readpicture, also inside command lists', () => {
    const [comments] = readOf('readcomments "a.flac"', 'binary: 5\nTITLE: x\nOK\n');
    expect(comments).toEqual({ ok: true, lines: [{ key: 'binary', value: '5' }, { key: 'TITLE', value: 'x' }] });
    const okList = readOf('command_list_ok_begin\nreadcomments "a"\nalbumart "a" 0\ncommand_list_end', 'binary: 3\nlist_OK\nsize: 2\nbinary: 2\nab\nlist_OK\nOK\n');
    expect(okList[0]!.lines.map((l) => l.data?.toString() ?? l.value)).toEqual(['3', '', '2', 'ab', '']);
    const plain = readOf('command_list_begin\nreadcomments "a"\nalbumart "a" 0\ncommand_list_end', 'binary: 3\nsize: 2\nbinary: 2\nab\nOK\n');
    expect(plain[0]!.lines.map((l) => l.data?.toString() ?? l.value)).toEqual(['3', '2', 'ab']);
  });

  it('keeps the bytes of a value that is not valid UTF-8', () => {
    const [r] = read(Buffer.concat([Buffer.from('file: caf'), Buffer.from([0xe9]), Buffer.from('.flac\nTitle: caf\u00e9\nOK\n')]));
    expect(r!.lines[0]).toEqual({ key: 'file', value: 'caf\uFFFD.flac', raw: Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('.flac')]) });
    expect(r!.lines[1]).toEqual({ key: 'Title', value: 'caf\u00e9' });
  });

  it('reads an empty binary chunk', () => {
    const [r] = readBinary('size: 0\nbinary: 0\n\nOK\n');
    expect(r!.lines[1]!.data?.length).toBe(0);
  });

  it('turns ACK lines into their JSON form', () => {
    const [r] = read('ACK [50@0] {find} No such directory\n');
    expect(r).toEqual({
      ok: false,
      lines: [],
      ack: { code: { value: 50, name: 'file_not_found' }, position: 0, command: 'find', message: 'No such directory' },
    });
    expect(parseAck('ACK [5@0] {} unknown command "foo"')).toEqual({
      code: { value: 5, name: 'unknown_command' },
      position: 0,
      command: '',
      message: 'unknown command "foo"',
    });
    expect(parseAck('ACK [2@1] {play} Bad song index')).toMatchObject({ position: 1, command: 'play' });
    expect(parseAck('ACK [1@0] {x} y').code).toEqual({ value: 1, name: 'not_list' });
    expect(parseAck('ACK [99@0] {x} y').code).toEqual({ value: 99, name: 'unknown_ack' });
    expect(parseAck('ACK garbage').code.name).toBe('unknown_ack');
  });

  it('hands the greeting over separately and refuses anything else as a greeting', () => {
    const versions: string[] = [];
    const replies: Reply[] = [];
    const r = new ReplyReader((x) => replies.push(x), (v) => versions.push(v));
    r.push(Buffer.from('OK MPD 0.23.5\nOK\n'));
    expect(versions).toEqual(['0.23.5']);
    expect(replies).toEqual([{ ok: true, lines: [] }]);
    const bad = new ReplyReader(() => undefined, () => undefined);
    expect(() => bad.push(Buffer.from('HTTP/1.1 400 Bad Request\r\n'))).toThrow(ProtocolError);
  });

  it('refuses garbage binary lengths and missing newlines after binary data', () => {
    expect(() => readBinary('binary: lots\n')).toThrow(ProtocolError);
    expect(() => readBinary('binary: -1\n')).toThrow(ProtocolError);
    expect(() => readBinary('binary: 2\nabXOK\n')).toThrow(ProtocolError);
  });

  it('quotes arguments: always double quotes, backslash and quote escaped', () => {
    expect(quoteArg('Blue Album')).toBe('"Blue Album"');
    expect(quoteArg('Green Song "quoted"')).toBe('"Green Song \\"quoted\\""');
    expect(quoteArg('back\\slash')).toBe('"back\\\\slash"');
    expect(quoteArg('')).toBe('""');
  });
});
