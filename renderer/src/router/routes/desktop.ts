// The desktop app's settings (shown in the navigation only inside the desktop window).
import type { RouteRecordRaw } from 'vue-router';

export default [
  {
    path: '/desktop',
    name: 'desktop',
    component: () => import('../../views/desktop/DesktopView.vue'),
    meta: { title: 'desktop.title', nav: { label: 'desktop.nav', order: 85, when: () => !!window.desktop } },
  },
] satisfies RouteRecordRaw[];
