/**
 * Whether an error means a service Pier depends on (an S3 endpoint, a network
 * database) could not be reached: refused, reset or timed-out connections,
 * unknown hosts, or the service answering with a server error.
 */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

export const isUnavailable = (err: unknown): boolean => {
  for (let e = err as Record<string, unknown> | undefined, i = 0; e && typeof e === 'object' && i < 6; e = e['cause'] as typeof e, i++) {
    if (typeof e['code'] === 'string' && networkCodes.has(e['code'])) return true;
    const meta = e['$metadata'] as { httpStatusCode?: number } | undefined;
    if (typeof meta?.httpStatusCode === 'number' && meta.httpStatusCode >= 500) return true;
    if (e['name'] === 'TimeoutError' && typeof e['$metadata'] === 'object') return true;
    if (Array.isArray(e['errors']) && (e['errors'] as unknown[]).some((x) => isUnavailable(x))) return true;
  }
  return false;
};
