// Pages for people without an account: a published share, an alias upload page.
import type { RouteRecordRaw } from 'vue-router';

export default [
  {
    path: '/open/:pid',
    name: 'open',
    component: () => import('../../views/OpenShareView.vue'),
    props: true,
    meta: { title: 'open.title' },
  },
  {
    path: '/share/:aliasId',
    name: 'guest',
    component: () => import('../../views/GuestUploadView.vue'),
    props: true,
    meta: { title: 'guest.title' },
  },
  {
    path: '/room/:roomId',
    name: 'room',
    component: () => import('../../views/RoomGuestView.vue'),
    props: true,
    meta: { title: 'rooms.guest.title' },
  },
] satisfies RouteRecordRaw[];
