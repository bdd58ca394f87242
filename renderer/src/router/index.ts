// The router: history mode below /app/. Routes come from every file in ./routes/
// (each default-exports a RouteRecordRaw[]), so areas add pages without touching this file.
import { createRouter, createWebHistory, type RouteRecordRaw } from 'vue-router';
import './meta';
import { useAuthStore } from '../stores/auth';
import { useSettingsStore } from '../stores/settings';

const modules = import.meta.glob<{ default: RouteRecordRaw[] }>('./routes/*.ts', { eager: true });

const routes: RouteRecordRaw[] = [
  {
    path: '/',
    name: 'start',
    redirect: () => {
      const page = useSettingsStore().config.initialPage;
      return { name: page === 'uploads' ? 'uploads' : page === 'share' ? 'share-new' : 'home' };
    },
  },
  ...Object.values(modules).flatMap((m) => m.default),
  {
    path: '/:pathMatch(.*)*',
    name: 'not-found',
    component: () => import('../views/NotFoundView.vue'),
    meta: { title: 'common.notFound.title' },
  },
];

export const router = createRouter({
  history: createWebHistory('/app/'),
  routes,
  scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
});

router.beforeEach((to) => {
  const auth = useAuthStore();
  if ((to.meta.secured || to.meta.admin) && !auth.loggedIn) {
    return { name: 'login', query: { r: to.fullPath } };
  }
  if (to.meta.admin && !auth.isAdmin) return { name: 'forbidden' };
  return true;
});

/**
 * A safe target for `?r=` after sign-in: a path inside the app, never another origin.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  if (value.startsWith('/login') || value.startsWith('/register')) return null;
  return value;
}
