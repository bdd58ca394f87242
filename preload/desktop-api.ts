// The type of `window.desktop`, the one global the preload script gives the desktop
// window. The web client imports this type only; at run time it feature-detects
// `window.desktop`, which browsers do not have.

export interface DesktopApi {
  /** Always true: lets the web client tell the desktop window from a browser. */
  readonly isDesktop: true;
  /** The desktop app's version (package.json `version`). */
  readonly version: string;
}
