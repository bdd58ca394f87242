// Turns server results and failures into messages for the user.
import { ApiError } from '../api/http';
import { fallbackLanguage, i18n } from '../i18n';
import { isTranslated } from '../i18n/languages';

/**
 * A server result in the user's language: the translation of its `code`
 * (`messages.<code>`, which may quote the server's text as `{message}`), or the
 * server's own message for a code this client does not know.
 */
export function resultMessage(result: { message: string; code?: string | undefined; field?: string | undefined }): string {
  const key = result.code ? `messages.${result.code}` : '';
  const { t, te } = i18n.global;
  // malformed input names its field: said in the user's language, the field by its label where the
  // client has one; in English the server's own words, which say more (what was wrong with it)
  const locale = i18n.global.locale.value;
  if (result.code === 'error.bad-request' && result.field && locale !== fallbackLanguage && isTranslated(locale)) {
    const label = te(`common.fields.${result.field}`, fallbackLanguage) ? t(`common.fields.${result.field}`) : result.field;
    return t('common.errors.badField', { field: label });
  }
  // an untranslated language shows the English texts, so the key counts when English has it
  return key && te(key, fallbackLanguage) ? t(key, { message: result.message }) : result.message;
}

/**
 * A failure for the user: the server's result by its code; without a known
 * code the server's message for business failures and input errors, and a
 * translated explanation for statuses whose message says little (network, 403,
 * 404, 413, 429, 5xx).
 */
export function errorMessage(error: unknown): string {
  const t = i18n.global.t;
  if (error instanceof ApiError) {
    if (error.code && i18n.global.te(`messages.${error.code}`, fallbackLanguage)) return resultMessage(error);
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
