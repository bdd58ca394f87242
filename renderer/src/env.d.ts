/// <reference types="vite/client" />
import type { DesktopApi } from '../../preload/desktop-api';

declare global {
  interface Window {
    /** Present only inside the desktop app (set by preload/); feature-detect it. */
    readonly desktop?: DesktopApi;
  }
}
