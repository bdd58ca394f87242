// Turns a failure into a message for the user.
import { ApiError } from '../api/http';
import { i18n } from '../i18n';

/**
 * The server's message for business failures and input errors; a translated
 * explanation for statuses whose message says little (network, 403, 404, 413, 429, 5xx).
 */
export function errorMessage(error: unknown): string {
  const t = i18n.global.t;
  if (error instanceof ApiError) {
    switch (error.status) {
      case 0:
        return t('common.errors.network');
      case 403:
        return t('common.errors.forbidden');
      case 404:
        return t('common.errors.notFound');
      case 413:
        return t('common.errors.tooLarge');
      case 429:
        return t('common.errors.tooMany');
      default:
        if (error.status >= 500) return t('common.errors.server', { message: error.message });
        return error.message;
    }
  }
  return error instanceof Error ? error.message : String(error);
}
