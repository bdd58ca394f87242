/** The message of an error and of its causes (drivers wrap the database's text). */
export const messagesOf = (err: unknown, depth = 0): string => {
  if (depth > 5 || err === null || err === undefined) return '';
  if (typeof err !== 'object') return String(err);
  const e = err as { message?: unknown; cause?: unknown };
  return `${typeof e.message === 'string' ? e.message : ''}\n${messagesOf(e.cause, depth + 1)}`;
};

/**
 * A full disk or database, as each store reports it: ENOSPC/EDQUOT from the
 * file system, SQLITE_FULL, PostgreSQL's disk-full state 53100, MariaDB's
 * "table is full" (1114) or disk-full errors.
 */
export const isStorageFull = (err: unknown): boolean => {
  const codes: unknown[] = [];
  for (let e = err as { code?: unknown; errno?: unknown; cause?: unknown } | undefined, i = 0; e && i < 6; e = e.cause as typeof e, i++) {
    codes.push(e.code, e.errno);
  }
  const text = messagesOf(err).toLowerCase();
  return (
    codes.some((c) => ['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100', 'ER_RECORD_FILE_FULL', 'ER_DISK_FULL', 1114, 1021].includes(c as string)) ||
    /no space left on device|database or disk is full|could not extend file/.test(text)
  );
};
