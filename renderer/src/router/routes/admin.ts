// Administration: accounts and invitations (admins only).
import type { RouteRecordRaw } from 'vue-router';

export default [
  {
    path: '/account',
    name: 'accounts',
    component: () => import('../../views/account/AccountListView.vue'),
    meta: { secured: true, admin: true, title: 'admin.accounts.title', nav: { label: 'admin.nav', order: 90 } },
  },
  {
    path: '/account/new',
    name: 'account-new',
    component: () => import('../../views/account/AccountEditView.vue'),
    meta: { secured: true, admin: true, title: 'admin.accounts.new' },
  },
  {
    path: '/account/:id',
    name: 'account',
    component: () => import('../../views/account/AccountEditView.vue'),
    props: true,
    meta: { secured: true, admin: true, title: 'admin.accounts.account' },
  },
  {
    path: '/newinvite',
    name: 'new-invite',
    component: () => import('../../views/account/NewInviteView.vue'),
    meta: { secured: true, admin: true, title: 'admin.invite.title' },
  },
] satisfies RouteRecordRaw[];
