/**
 * The server secret that signs tokens: configured (`hex:`, `b64:` or UTF-8),
 * or generated once and kept in `<data-dir>/server-secret` so tokens survive
 * restarts and no two installs share a secret.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Name of the generated secret's file inside the data directory. */
export const SECRET_FILE = 'server-secret';

/**
 * Decodes a configured secret: `hex:<hex>`, `b64:<base64>`, otherwise the
 * UTF-8 bytes. Throws an `Error` saying what is wrong (never echoing the value).
 */
export const decodeSecret = (text: string): Uint8Array => {
  if (text.startsWith('hex:')) {
    const hex = text.slice(4).trim();
    if (hex === '' || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) throw new Error('hex: needs an even number of hex digits');
    return new Uint8Array(Buffer.from(hex, 'hex'));
  }
  if (text.startsWith('b64:')) {
    const b64 = text.slice(4).trim();
    if (b64 === '' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(b64)) throw new Error('b64: needs base64 text');
    return new Uint8Array(Buffer.from(b64, b64.includes('-') || b64.includes('_') ? 'base64url' : 'base64'));
  }
  if (text === '') throw new Error('the secret is empty');
  return new Uint8Array(Buffer.from(text, 'utf8'));
};

/**
 * The secret bytes: decoded from `configured` when it is not empty; otherwise
 * read from `<dataDir>/server-secret`, which is created (with 32 random bytes,
 * mode 0600, atomically) when missing. Processes racing to create it all end
 * up with the content of the one file that won. Throws when the file cannot be
 * read or written, or holds an invalid secret.
 */
export const resolveServerSecret = async (
  configured: string,
  dataDir: string,
): Promise<{ secret: Uint8Array; generated: boolean }> => {
  if (configured !== '') return { secret: decodeSecret(configured), generated: false };
  const file = join(dataDir, SECRET_FILE);
  const existing = await readSecretFile(file);
  if (existing) return { secret: existing, generated: false };

  await mkdir(dataDir, { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `hex:${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flush: true });
  try {
    // link() publishes the complete file but, unlike rename(), never replaces
    // one that another process published first: the loser then reads the winner's.
    await link(temp, file);
  } catch (e) {
    if (code(e) !== 'EEXIST') {
      if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(code(e) ?? '')) throw e;
      // file systems without hard links: rename, then everyone reads what is there
      await rename(temp, file);
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  const secret = await readSecretFile(file);
  if (!secret) throw new Error(`${file} vanished while it was being created`);
  return { secret, generated: true };
};

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code;

/** The secret in `file` (same syntax as the configuration), or undefined when there is no file. */
const readSecretFile = async (file: string): Promise<Uint8Array | undefined> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw e;
  }
  try {
    return decodeSecret(text.trim());
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`, { cause: e });
  }
};
