// The desktop app's settings (shown in the navigation only inside the desktop window).
import type { RouteRecordRaw } from 'vue-router';

export default [
  {
    path: '/desktop',
    name: 'desktop',
    component: () => import('../../views/desktop/DesktopView.vue'),
    meta: { title: 'desktop.title', nav: { label: 'desktop.nav', order: 85, when: () => !!window.desktop } },
    // window.desktop works only in a document loaded as this page: coming from another
    // page of the app, the desktop window loads it anew
    beforeEnter: (to, from) => {
      if (!window.desktop || from.matched.length === 0) return true;
      window.location.assign(`/app${to.fullPath}`);
      return false;
    },
  },
] satisfies RouteRecordRaw[];
