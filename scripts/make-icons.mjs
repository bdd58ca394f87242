// Draws Pier's icons: a pier over water on a blue rounded square.
// - resources/icon.png (512×512): the app's icon (electron-builder makes .ico and .icns of it);
// - resources/tray.png (32×32): the tray on Linux;
// - resources/tray.ico (16, 24 and 32 px): the tray on Windows, which picks the size that
//   fits its scaling;
// - resources/trayTemplate.png (16×16) and trayTemplate@2x.png (32×32): the tray on macOS,
//   a template image (black and alpha only; the name ending in "Template" makes macOS
//   colour it for a light or dark menu bar): the pier and its wave without the square.
// Plain Node only: shapes are distance tests, anti-aliased by supersampling, written as PNG
// chunks and icon directories by hand with node:zlib. Drawn from the shapes rather than
// converted from tray.png, so that the small sizes stay sharp.
// Run `node scripts/make-icons.mjs` after changing the drawing; the files are committed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SUPERSAMPLE = 5;

/** Signed distance from (x, y) to a rounded rectangle [x0,x1]×[y0,y1] with corner radius r. */
function roundedRect(x, y, x0, y0, x1, y1, r) {
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const qx = Math.abs(x - cx) - ((x1 - x0) / 2 - r);
  const qy = Math.abs(y - cy) - ((y1 - y0) / 2 - r);
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0));
  return outside + Math.min(Math.max(qx, qy), 0) - r;
}

/**
 * A scene maps a point of the unit square to an opaque [r, g, b] (0..1), or null when empty.
 * `template`: the pier and its wave in black, nothing else.
 */
function pierScene({ bold, template = false }) {
  const deckH = bold ? 0.13 : 0.08;
  const postW = bold ? 0.12 : 0.065;
  const waveT = bold ? 0.075 : 0.03;
  const posts = bold ? [0.3, 0.7] : [0.3, 0.5, 0.7];
  const waves = bold ? [{ y: 0.8, alpha: 1 }] : [{ y: 0.74, alpha: 0.95 }, { y: 0.85, alpha: 0.6 }];
  const white = template ? [0, 0, 0] : [1, 1, 1];

  return (x, y) => {
    if (roundedRect(x, y, 0.04, 0.04, 0.96, 0.96, bold ? 0.2 : 0.19) > 0) return null;
    const deckTop = 0.42;
    const inDeck = roundedRect(x, y, 0.18, deckTop, 0.82, deckTop + deckH, 0.02) <= 0;
    const inPost = posts.some(
      (px) => roundedRect(x, y, px - postW / 2, deckTop, px + postW / 2, bold ? 0.72 : 0.68, 0.015) <= 0,
    );
    if (inDeck || inPost) return white;
    for (const wave of waves) {
      const wy = wave.y + 0.02 * Math.sin(2 * Math.PI * 3 * x);
      if (x > 0.14 && x < 0.86 && Math.abs(y - wy) <= waveT / 2) return template ? white : mix(white, background(y), wave.alpha);
    }
    return template ? null : background(y);
  };
}

/** A vertical gradient from a light to a deep blue. */
function background(y) {
  return mix([0.08, 0.3, 0.66], [0.17, 0.49, 0.91], y);
}

/** `a` weighted by t plus `b` weighted by 1 - t. */
function mix(a, b, t) {
  return a.map((c, i) => c * t + b[i] * (1 - t));
}

/** Renders the scene at size×size into straight-alpha RGBA bytes. */
function render(scene, size) {
  const pixels = Buffer.alloc(size * size * 4);
  const n = SUPERSAMPLE;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const color = scene((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          if (color === null) continue;
          r += color[0];
          g += color[1];
          b += color[2];
          a += 1;
        }
      }
      const o = (py * size + px) * 4;
      if (a > 0) {
        pixels[o] = Math.round((r / a) * 255);
        pixels[o + 1] = Math.round((g / a) * 255);
        pixels[o + 2] = Math.round((b / a) * 255);
        pixels[o + 3] = Math.round((a / (n * n)) * 255);
      }
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** Encodes straight-alpha RGBA pixels as a PNG (8-bit RGBA, no filtering). */
function encodePng(pixels, size) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    // Each row starts with its filter type, 0 (none).
    pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * One image of an .ico file: a 32-bit BGRA bitmap (rows bottom-up) followed by its 1-bit
 * mask, all zero since the alpha channel says what is transparent. Bitmaps rather than
 * PNG entries, which older readers of small icons do not take.
 */
function icoBitmap(pixels, size) {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // the bitmap and its mask
  header.writeUInt16LE(1, 12); // planes
  header.writeUInt16LE(32, 14); // bits per pixel
  const bgra = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 4;
      const to = ((size - 1 - y) * size + x) * 4;
      bgra[to] = pixels[from + 2];
      bgra[to + 1] = pixels[from + 1];
      bgra[to + 2] = pixels[from];
      bgra[to + 3] = pixels[from + 3];
    }
  }
  const maskRow = Math.ceil(size / 32) * 4;
  return Buffer.concat([header, bgra, Buffer.alloc(maskRow * size)]);
}

/** An .ico file with one image per size, drawn at that size. */
function encodeIco(scene, sizes) {
  const images = sizes.map((size) => icoBitmap(render(scene, size), size));
  const directory = Buffer.alloc(6 + 16 * sizes.length);
  directory.writeUInt16LE(1, 2); // type: icon
  directory.writeUInt16LE(sizes.length, 4);
  let offset = directory.length;
  sizes.forEach((size, i) => {
    const entry = 6 + 16 * i;
    directory[entry] = size;
    directory[entry + 1] = size;
    directory.writeUInt16LE(1, entry + 4); // planes
    directory.writeUInt16LE(32, entry + 6); // bits per pixel
    directory.writeUInt32LE(images[i].length, entry + 8);
    directory.writeUInt32LE(offset, entry + 12);
    offset += images[i].length;
  });
  return Buffer.concat([directory, ...images]);
}

/** The scene enlarged `by` times around (cx, cy), which lands in the middle. */
function zoom(scene, by, cx, cy) {
  return (x, y) => scene(cx + (x - 0.5) / by, cy + (y - 0.5) / by);
}

const tray = pierScene({ bold: true });
// without its square, the pier (x 0.14–0.86, y 0.42–0.84) fills the menu bar's icon
const trayTemplate = zoom(pierScene({ bold: true, template: true }), 1.3, 0.5, 0.63);
const icons = [
  { file: 'resources/icon.png', size: 512, scene: pierScene({ bold: false }) },
  { file: 'resources/tray.png', size: 32, scene: tray },
  { file: 'resources/trayTemplate.png', size: 16, scene: trayTemplate },
  { file: 'resources/trayTemplate@2x.png', size: 32, scene: trayTemplate },
];
for (const { file, size, scene } of icons) {
  const path = join(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, encodePng(render(scene, size), size));
  console.log(`wrote ${file} (${size}×${size})`);
}
writeFileSync(join(root, 'resources/tray.ico'), encodeIco(tray, [16, 24, 32]));
console.log('wrote resources/tray.ico (16, 24 and 32 px)');
