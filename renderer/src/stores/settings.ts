// The server's client settings (`/api/v2/open/info/appconfig`), loaded once before the app mounts.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { getAppConfig } from '../api/info.js';
import type { AppConfig } from '../api/types.js';

const day = 24 * 60 * 60 * 1000;

/** Used until the settings arrive, and when the server cannot be reached. */
const fallbackConfig: AppConfig = {
  appName: 'Pier',
  baseUrl: '',
  logoUrl: '',
  logoUrlDark: '',
  iconUrl: '',
  iconUrlDark: '',
  footerText: '',
  footerVisible: true,
  signupMode: 'closed',
  oauthConfig: [],
  chunkSize: 10 * 1024 * 1024,
  maxValidity: 365 * day,
  maxSize: 1536 * 1024 * 1024,
  authRefreshTime: 4 * 60 * 1000,
  defaultValidity: 7 * day,
  zipMaxSize: 1536 * 1024 * 1024,
  retryDelays: [0, 3000, 6000, 12000, 24000, 48000],
  mailEnabled: false,
  oauthOnly: false,
  aliasMemberEnabled: true,
  playerEnabled: true,
  oauthAutoRedirect: true,
  proxyAuthEnabled: false,
  proxyOnly: false,
  hideLoginForm: false,
  sharePasswordRequired: false,
  autoPublishEnabled: false,
  welcomeMessage: '',
  defaultLanguage: 'gb',
  initialTheme: 'light',
  defaultTimezone: '',
  initialPage: 'home',
  passwordMinLength: 8,
};

export const useSettingsStore = defineStore('settings', () => {
  const config = ref<AppConfig>({ ...fallbackConfig });
  /** the error message when the settings could not be loaded, else null */
  const loadError = ref<string | null>(null);

  /** Fetches the settings; on failure keeps the fallback and records the error. */
  async function load(): Promise<void> {
    try {
      config.value = await getAppConfig();
      loadError.value = null;
    } catch (error) {
      loadError.value = error instanceof Error ? error.message : String(error);
    }
  }

  /**
   * The origin used in links given to other people (share and alias links):
   * the configured base URL, or this page's origin when the server sends none.
   */
  const publicBase = computed(() => (config.value.baseUrl || window.location.origin).replace(/\/+$/, ''));

  return { config, loadError, load, publicBase };
});
