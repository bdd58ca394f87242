// The user's own settings.
import type { RouteRecordRaw } from 'vue-router';

export default [
  {
    path: '/settings',
    name: 'settings',
    component: () => import('../../views/settings/SettingsView.vue'),
    meta: { secured: true, title: 'settings.title', nav: { label: 'settings.nav', order: 80 } },
  },
] satisfies RouteRecordRaw[];
