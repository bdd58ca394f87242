// The Electron runtime for `npm start`. `npm install` does not download it (package.json's
// allowScripts denies the electron package's install script), so the first `npm start`
// runs that installer itself, with its progress bar. When the download fails, the failure
// is remembered in a small file so that the next starts do not wait for it again before
// `retryAfterMs` has passed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How long a failed download keeps the next starts from trying again. */
const RETRY_AFTER_MS = 6 * 60 * 60 * 1000;
/** The longest a download may take before it counts as failed. */
const DOWNLOAD_TIMEOUT_MS = 15 * 60 * 1000;

const captureReason = join(dirname(fileURLToPath(import.meta.url)), 'electron-install-reason.mjs');

/**
 * The Electron executable of the electron package in `electronDir`, or null when its
 * binary is not installed (the package's index.js then throws).
 */
export function electronExecutable(electronDir) {
  try {
    const path = createRequire(join(electronDir, 'index.js'))(join(electronDir, 'index.js'));
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const minutes = (ms) => `${Math.max(1, Math.round(ms / 60_000))} min`;

/** The failure remembered in `stateFile` when it is younger than `retryAfterMs`, else null. */
async function recentFailure(stateFile, now, retryAfterMs) {
  try {
    const { failedAt, reason } = JSON.parse(await readFile(stateFile, 'utf8'));
    if (typeof failedAt === 'number' && typeof reason === 'string' && failedAt <= now && now - failedAt < retryAfterMs)
      return { failedAt, reason };
  } catch {
    // no file, or not ours: try the download
  }
  return null;
}

/** Runs the electron package's install.js; resolves to null on success, else the reason in one line. */
function runInstaller(electronDir, env, timeoutMs) {
  return new Promise((resolve) => {
    // stdout and stderr stay on this terminal (the progress bar); what the installer
    // reports with console.error, its failure, comes back on fd 3.
    const child = spawn(process.execPath, ['--import', pathToFileURL(captureReason).href, join(electronDir, 'install.js')], {
      cwd: electronDir,
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
      timeout: timeoutMs,
    });
    let report = '';
    child.stdio[3].setEncoding('utf8');
    child.stdio[3].on('data', (chunk) => {
      if (report.length < 64 * 1024) report += chunk;
    });
    child.on('error', (error) => resolve(error.message));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(null);
      const line = report.split('\n').map((l) => l.trim()).find((l) => l !== '');
      if (signal !== null && line === undefined) return resolve(`no answer within ${minutes(timeoutMs)}`);
      resolve((line ?? `the installer exited with ${code}`).slice(0, 300));
    });
  });
}

/**
 * Makes the Electron runtime of `electronDir` available: the executable's path when it is
 * installed or the download succeeds, else the reason in one line. A failure is written to
 * `stateFile` (its folder is created when missing); while it is younger than
 * `retryAfterMs`, no download is tried and the reason says so.
 *
 * @param {{ electronDir: string, stateFile: string, env?: NodeJS.ProcessEnv, now?: number,
 *   retryAfterMs?: number, timeoutMs?: number }} options
 * @returns {Promise<{ path: string } | { reason: string, tried: boolean }>}
 */
export async function ensureElectron({
  electronDir,
  stateFile,
  env = process.env,
  now = Date.now(),
  retryAfterMs = RETRY_AFTER_MS,
  timeoutMs = DOWNLOAD_TIMEOUT_MS,
}) {
  const installed = electronExecutable(electronDir);
  if (installed !== null) return { path: installed };
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD)
    return { reason: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is not downloaded', tried: false };

  const previous = await recentFailure(stateFile, now, retryAfterMs);
  if (previous !== null)
    return {
      reason:
        `its download failed ${minutes(now - previous.failedAt)} ago (${previous.reason}); ` +
        `tried again after ${minutes(previous.failedAt + retryAfterMs - now)}, or at once when ${stateFile} is deleted`,
      tried: false,
    };

  const failure = await runInstaller(electronDir, env, timeoutMs);
  const path = failure === null ? electronExecutable(electronDir) : null;
  if (path !== null) {
    await rm(stateFile, { force: true });
    return { path };
  }
  const reason = failure ?? 'the installer finished without an Electron executable';
  await mkdir(dirname(stateFile), { recursive: true, mode: 0o700 });
  await writeFile(stateFile, JSON.stringify({ failedAt: now, reason }) + '\n', { mode: 0o600 });
  return { reason: `its download failed (${reason})`, tried: true };
}
