// What a route may declare in `meta` (see renderer/README.md).
import 'vue-router';

export interface NavEntry {
  /** i18n key of the link text */
  label: string;
  /** position in the navigation: lower comes first (home 10, share 20, uploads 30, aliases 40, player 60, settings 80, admin 90) */
  order: number;
  /** shown only when this returns true (e.g. only in the desktop app) */
  when?: () => boolean;
}

declare module 'vue-router' {
  interface RouteMeta {
    /** requires a signed-in user; others are sent to the login page with `r=` */
    secured?: boolean;
    /** requires an admin (implies secured) */
    admin?: boolean;
    /** i18n key of the page title (document title) */
    title?: string;
    /** a link in the main navigation */
    nav?: NavEntry;
  }
}

export {};
