// The owner's file sharing: new share, the list of shares, one share.
import type { RouteRecordRaw } from 'vue-router';

export default [
  {
    path: '/share',
    name: 'share-new',
    component: () => import('../../views/NewShareView.vue'),
    meta: { secured: true, title: 'shares.new.title', nav: { label: 'common.nav.newShare', order: 20 } },
  },
  {
    path: '/uploads',
    name: 'uploads',
    component: () => import('../../views/SharesView.vue'),
    meta: { secured: true, title: 'shares.list.title', nav: { label: 'common.nav.shares', order: 30 } },
  },
  {
    path: '/upload/:id',
    name: 'upload',
    component: () => import('../../views/ShareDetailView.vue'),
    props: true,
    meta: { secured: true, title: 'shares.detail.title' },
  },
] satisfies RouteRecordRaw[];
