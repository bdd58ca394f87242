/**
 * The server secret that signs tokens: configured (`hex:`, `b64:` or UTF-8),
 * or generated once and kept in `<data-dir>/server-secret` so tokens survive
 * restarts and no two installs share a secret.
 */
import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hasPosixModes, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, untrusted } from './data-dir.js';

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

export interface ResolvedSecret {
  secret: Uint8Array;
  generated: boolean;
  /** the file was readable by others and has been made private (0600) */
  tightened?: boolean;
}

/**
 * The secret bytes: decoded from `configured` when it is not empty; otherwise
 * read from `<dataDir>/server-secret`, which is created (with 32 random bytes,
 * mode 0600 whatever the umask, atomically) when missing. Processes racing to
 * create it all end up with the content of the one file that won.
 *
 * A secret file that another user owns or that group or others can write is
 * refused (someone may have planted it to forge tokens); one of this user that
 * others can only read is made 0600. Not checked on Windows (no POSIX modes).
 * Throws when the file is refused, cannot be read or written, or holds an
 * invalid secret.
 */
export const resolveServerSecret = async (configured: string, dataDir: string): Promise<ResolvedSecret> => {
  if (configured !== '') return { secret: decodeSecret(configured), generated: false };
  const file = join(dataDir, SECRET_FILE);
  const existing = await readSecretFile(file);
  if (existing) return { ...existing, generated: false };
  await createOnce(dataDir, file, `hex:${randomBytes(32).toString('hex')}\n`);
  const read = await readSecretFile(file);
  if (!read) throw new Error(`${file} vanished while it was being created`);
  return { secret: read.secret, generated: true };
};

/** Name of the generated invitation password's file inside the data directory. */
export const INVITE_PASSWORD_FILE = 'invite-password';

/**
 * The password that creates invitation keys when none is configured: read
 * from `<dataDir>/invite-password`, created with 18 random bytes (base64url)
 * when missing, with the checks and the atomic creation of the server secret,
 * so no two installs share it. Throws like `resolveServerSecret`.
 */
export const resolveInvitePassword = async (dataDir: string): Promise<{ password: string; file: string; tightened: boolean }> => {
  const file = join(dataDir, INVITE_PASSWORD_FILE);
  let existing = await readPrivateFile(file);
  if (!existing) {
    await createOnce(dataDir, file, `${randomBytes(18).toString('base64url')}\n`);
    existing = await readPrivateFile(file);
  }
  const password = existing?.text.trim() ?? '';
  if (!existing || password === '') throw new Error(`${file} holds no password; delete it to have a new one generated`);
  return { password, file, tightened: existing.tightened };
};

/**
 * Creates `file` with `content`, mode 0600 whatever the umask, atomically;
 * when another process created it first, its content stays.
 */
const createOnce = async (dataDir: string, file: string, content: string): Promise<void> => {
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, content, { mode: PRIVATE_FILE_MODE, flush: true });
  // the umask may have taken bits away from the mode given to writeFile
  if (hasPosixModes()) await chmod(temp, PRIVATE_FILE_MODE);
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
};

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code;

/**
 * The secret in `file` (same syntax as the configuration), or undefined when
 * there is no file. Owner and mode are checked on the opened file itself, so
 * what is checked is what is read.
 */
const readSecretFile = async (file: string): Promise<{ secret: Uint8Array; tightened: boolean } | undefined> => {
  const read = await readPrivateFile(file);
  if (!read) return undefined;
  try {
    return { secret: decodeSecret(read.text.trim()), tightened: read.tightened };
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`, { cause: e });
  }
};

/**
 * The text of a generated file of the data directory, or undefined when
 * there is none. Refused when another user owns it or others can write it
 * (it may have been planted); made 0600 when others can read it.
 */
const readPrivateFile = async (file: string): Promise<{ text: string; tightened: boolean } | undefined> => {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw e;
  }
  let text: string;
  let tightened = false;
  try {
    if (hasPosixModes()) {
      const st = await handle.stat();
      if (!st.isFile()) throw new Error(`${file} is not a regular file`);
      const why = untrusted(file, st);
      if (why !== undefined)
        throw new Error(
          `${why}: it may have been planted (to forge tokens or invitations), so it is not used. ` +
            'Delete it (a new one is generated at the next start) or configure the value',
        );
      if ((st.mode & 0o077) !== 0) {
        await handle.chmod(PRIVATE_FILE_MODE);
        tightened = true;
      }
    }
    text = await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
  return { text, tightened };
};
