/**
 * The app's identity on the system. Windows ties notifications and the taskbar to the
 * app user model id, which must equal the installer's (electron-builder.yml's `appId`):
 * the main process calls `app.setAppUserModelId(APP_ID)` before anything else.
 */
export const APP_ID = 'app.pier.desktop';
