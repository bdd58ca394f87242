// Sign-in, registration, home and notices.
import type { RouteRecordRaw } from 'vue-router';

export default [
  {
    path: '/login',
    name: 'login',
    component: () => import('../../views/LoginView.vue'),
    meta: { title: 'auth.login.title' },
  },
  {
    path: '/register',
    name: 'register',
    component: () => import('../../views/RegisterView.vue'),
    meta: { title: 'auth.register.title' },
  },
  {
    path: '/home',
    name: 'home',
    component: () => import('../../views/HomeView.vue'),
    meta: { secured: true, title: 'common.nav.home', nav: { label: 'common.nav.home', order: 10 } },
  },
  {
    path: '/info/0',
    name: 'forbidden',
    component: () => import('../../views/InfoView.vue'),
    props: { kind: 'forbidden' },
    meta: { title: 'common.forbidden.title' },
  },
  {
    path: '/info/1',
    name: 'expired',
    component: () => import('../../views/InfoView.vue'),
    props: { kind: 'expired' },
    meta: { title: 'common.expired.title' },
  },
] satisfies RouteRecordRaw[];
