// The music player (its code is loaded only when the page is opened).
import type { RouteRecordRaw } from 'vue-router';
import { useSettingsStore } from '../../stores/settings';

export default [
  {
    path: '/player',
    name: 'player',
    component: () => import('../../views/player/PlayerView.vue'),
    meta: { secured: true, title: 'player.title', nav: { label: 'player.nav', order: 60, when: () => useSettingsStore().config.playerEnabled } },
  },
] satisfies RouteRecordRaw[];
