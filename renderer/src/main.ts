// Start-up: settings first (they decide language, theme and the session renewal),
// then the session check, then the router, then mount.
import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { configureApi } from './api/http';
import { i18n } from './i18n';
import { router } from './router';
import { useAuthStore } from './stores/auth';
import { useSettingsStore } from './stores/settings';
import { useUiStore } from './stores/ui';
import './styles/main.css';

async function start(): Promise<void> {
  const app = createApp(App);
  app.use(createPinia());
  app.use(i18n);

  const settings = useSettingsStore();
  await settings.load();
  useUiStore();

  const auth = useAuthStore();
  configureApi({
    token: () => auth.token,
    onUnauthorized: () => {
      auth.clear();
      // a page for people without an account (a published share, an upload link) stays
      const current = router.currentRoute.value;
      if (current.meta.secured || current.meta.admin) void router.push({ name: 'login', query: { r: current.fullPath } });
    },
  });
  auth.followOtherTabs();
  if (auth.loggedIn) await auth.renew();

  app.use(router);
  await router.isReady();
  app.mount('#app');
}

void start();
