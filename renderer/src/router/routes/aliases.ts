// Aliases: the upload links for guests (list, create, edit).
import type { RouteRecordRaw } from 'vue-router';

export default [
  {
    path: '/alias',
    name: 'aliases',
    component: () => import('../../views/aliases/AliasListView.vue'),
    meta: { secured: true, title: 'aliases.title', nav: { label: 'aliases.nav', order: 40 } },
  },
  {
    path: '/alias/new',
    name: 'alias-new',
    component: () => import('../../views/aliases/AliasEditView.vue'),
    meta: { secured: true, title: 'aliases.new' },
  },
  {
    path: '/alias/:id',
    name: 'alias',
    component: () => import('../../views/aliases/AliasEditView.vue'),
    props: true,
    meta: { secured: true, title: 'aliases.alias' },
  },
] satisfies RouteRecordRaw[];
