/**
 * Generates the test music library (reference §4.2, adapted): FLAC with tags
 * and a non-square cover plus a booklet; MP3 on two discs (`CD1`, `CD2`) with
 * the cover in the album folder; Ogg with two ARTIST values and a quoted
 * title; a FLAC with an embedded picture and no cover file; an album with a
 * cover larger than 1000 px; a cover only in a disc sub-folder; symbolic
 * links leading outside the library; troublesome tags and names: comment keys
 * `binary`, `constructor` and `toString`, a repeated comment key, a file name
 * that is not valid UTF-8, and a 500×700 cover. Images are drawn with sharp.
 */
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { run } from './system.js';

/** A minimal valid one-page PDF, written by hand (ImageMagick may not write PDFs). */
export const tinyPdf = (): Buffer => {
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
};

const image = (w: number, h: number, color: string, format: 'jpeg' | 'png'): Promise<Buffer> => {
  const img = sharp({ create: { width: w, height: h, channels: 3, background: color } });
  return (format === 'jpeg' ? img.jpeg() : img.png()).toBuffer();
};

/** A big, non-uniform picture (gradient stripes), so resizing has real work to do. */
const bigImage = async (w: number, h: number): Promise<Buffer> => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g"><stop offset="0" stop-color="#203040"/><stop offset="1" stop-color="#e0a020"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${w / 2}" cy="${h / 2}" r="${h / 3}" fill="#a02040"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
};

const flac = async (file: string, seconds: number, freq: number, tags: Record<string, string | string[]>): Promise<void> => {
  await run('sox', ['-n', '-r', '44100', '-c', '2', '-b', '16', file, 'synth', String(seconds), 'sine', String(freq)]);
  const args = ['--remove-all-tags'];
  for (const [k, v] of Object.entries(tags)) for (const one of Array.isArray(v) ? v : [v]) args.push(`--set-tag=${k}=${one}`);
  await run('metaflac', [...args, file]);
};

export interface Library {
  /** the music directory */
  music: string;
  /** a directory outside the library that symbolic links point into */
  outside: string;
  /** number of songs the daemon should find */
  songs: number;
  /** the path (inside the library) of the song whose name is not valid UTF-8, as bytes */
  latin1Name: Buffer;
}

export const generateLibrary = async (root: string): Promise<Library> => {
  const music = join(root, 'music');
  const outside = join(root, 'outside');
  const d = (p: string) => {
    mkdirSync(join(music, p), { recursive: true });
    return join(music, p);
  };
  mkdirSync(outside, { recursive: true });

  // FLAC album: two songs, a 600×400 cover.jpg, a booklet
  const blue = d('Artist One/Blue Album');
  for (const n of [1, 2]) {
    await flac(join(blue, `0${n} - Song ${n}.flac`), 3, 440 * n, {
      TITLE: `Blue Song ${n}`,
      ARTIST: 'Artist One',
      ALBUMARTIST: 'Artist One',
      ALBUM: 'Blue Album',
      TRACKNUMBER: String(n),
      DATE: '2001',
      GENRE: 'Jazz',
      COMPOSER: 'Composer A',
      DISCNUMBER: '1',
    });
  }
  writeFileSync(join(blue, 'cover.jpg'), await image(600, 400, '#4682b4', 'jpeg'));
  writeFileSync(join(blue, 'booklet.pdf'), tinyPdf());

  // MP3 album on two discs, cover.png in the album folder above them
  const red = d('Artist Two/Red Album (2CD)');
  for (const n of [1, 2]) {
    const f = join(d(`Artist Two/Red Album (2CD)/CD${n}`), `01 - Red Song ${n}.mp3`);
    await run('sox', ['-n', '-r', '44100', '-c', '2', f, 'synth', '2', 'sine', '330']);
    await run('id3v2', ['--song', `Red Song ${n}`, '--artist', 'Artist Two', '--album', 'Red Album', '--track', '1', '--year', '1999', '--genre', '8', '--TPOS', String(n), '--TPE2', 'Artist Two', f]);
  }
  writeFileSync(join(red, 'cover.png'), await image(300, 300, '#b22222', 'png'));

  // Ogg Vorbis: two ARTIST values, a quote in the title, a ": " in the comment, no cover anywhere
  const green = d('Various/Green Album');
  await run('sox', [
    '-n', '-r', '44100', '-c', '2',
    '--comment', 'TITLE=Green Song "quoted"',
    '--add-comment', 'ARTIST=Artist Three',
    '--add-comment', 'ARTIST=Artist Four',
    '--add-comment', 'ALBUM=Green Album',
    '--add-comment', 'TRACKNUMBER=1',
    '--add-comment', 'GENRE=Rock',
    '--add-comment', 'COMMENT=note: with colon',
    join(green, '01 green.ogg'), 'synth', '2', 'sine', '550',
  ]);

  // FLAC with an embedded picture and no cover file (readpicture)
  const purple = d('Artist One/Purple Album');
  const purpleSong = join(purple, '01 - Purple.flac');
  await flac(purpleSong, 2, 660, { TITLE: 'Purple Song', ARTIST: 'Artist One', ALBUM: 'Purple Album', TRACKNUMBER: '1' });
  const embedded = join(root, 'embedded.png');
  writeFileSync(embedded, await image(500, 500, '#800080', 'png'));
  await run('metaflac', [`--import-picture-from=${embedded}`, purpleSong]);

  // a cover larger than 1000 px
  const big = d('Artist Three/Big Album');
  await flac(join(big, '01 - Big.flac'), 2, 770, { TITLE: 'Big Song', ARTIST: 'Artist Three', ALBUM: 'Big Album', TRACKNUMBER: '1' });
  writeFileSync(join(big, 'cover.jpg'), await bigImage(2000, 1500));

  // the cover only in a disc sub-folder, the album folder has none
  const orange = d('Various/Orange Album/Disc 1');
  await flac(join(orange, '01 - Orange.flac'), 2, 880, { TITLE: 'Orange Song', ARTIST: 'Artist Five', ALBUM: 'Orange Album', TRACKNUMBER: '1' });
  writeFileSync(join(orange, 'front.png'), await image(200, 200, '#ffa500', 'png'));

  // symbolic links leading out of the library: a folder, and a cover next to a song
  writeFileSync(join(outside, 'cover.jpg'), await image(64, 64, '#000000', 'jpeg'));
  writeFileSync(join(outside, 'secret.txt'), 'outside the music directory');
  symlinkSync(outside, join(music, 'escape-link'));
  const linked = d('Various/Link Album');
  await flac(join(linked, '01 - Link.flac'), 1, 990, { TITLE: 'Link Song', ARTIST: 'Artist Six', ALBUM: 'Link Album', TRACKNUMBER: '1' });
  symlinkSync(join(outside, 'cover.jpg'), join(linked, 'cover.jpg'));

  // troublesome tags: keys the protocol or JavaScript objects treat specially, a repeated key; a portrait cover
  const odd = d('Odd/Odd Album');
  await flac(join(odd, '01 - Odd.flac'), 1, 500, {
    TITLE: 'Odd Song',
    ARTIST: 'Artist Seven',
    ALBUM: 'Odd Album',
    TRACKNUMBER: '1',
    binary: '5',
    constructor: 'built',
    toString: 'text',
    MOOD: ['calm', 'bright'],
  });
  writeFileSync(join(odd, 'cover.jpg'), await image(500, 700, '#2e8b57', 'jpeg'));
  // a file name that is not valid UTF-8 (Latin-1 "é" as one byte)
  const latin1Name = Buffer.concat([Buffer.from('Odd/Odd Album/02 - caf'), Buffer.from([0xe9]), Buffer.from('.flac')]);
  await flac(join(odd, 'latin1.flac'), 1, 520, { TITLE: 'Latin Song', ARTIST: 'Artist Seven', ALBUM: 'Odd Album', TRACKNUMBER: '2' });
  renameSync(join(odd, 'latin1.flac'), Buffer.concat([Buffer.from(`${music}/`), latin1Name]));

  return { music, outside, songs: 11, latin1Name };
};
