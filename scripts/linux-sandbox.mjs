// A development start of Electron on Linux where unprivileged user namespaces are
// restricted (Ubuntu 23.10 and later, through AppArmor) falls back to Chromium's SUID
// sandbox helper, and aborts at once when `chrome-sandbox` in node_modules is not
// owned by root with mode 4755 (npm cannot install it so). Found beforehand, as
// AppImage's AppRun does, it is one line to say how to fix.
import { readFileSync, statSync } from 'node:fs';

export const USERNS_RESTRICTION = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

/**
 * The message for a start that would abort on the sandbox helper, or `null`.
 * `sandbox`: the path of `chrome-sandbox` next to the Electron executable.
 */
export function sandboxProblem(sandbox, { platform = process.platform, uid = process.getuid?.(), read = readFileSync, stat = statSync } = {}) {
  if (platform !== 'linux' || uid === 0) return null;
  let restricted = false;
  try {
    restricted = String(read(USERNS_RESTRICTION, 'utf8')).trim() === '1';
  } catch {
    return null;
  }
  if (!restricted) return null;
  let info;
  try {
    info = stat(sandbox);
  } catch {
    return null;
  }
  if (info.uid === 0 && (info.mode & 0o4755) === 0o4755) return null;
  return (
    "This system restricts user namespaces, so Electron's sandbox needs its helper set up once: " +
    `sudo chown root:root '${sandbox}' && sudo chmod 4755 '${sandbox}'`
  );
}
