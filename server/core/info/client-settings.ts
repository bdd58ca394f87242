import type { Config } from '../../config/types.js';

/** The client settings object (`GET /open/info/appconfig`). */
export interface ClientSettings {
  appName: string;
  baseUrl: string;
  logoUrl: string;
  logoUrlDark: string;
  iconUrl: string;
  iconUrlDark: string;
  footerText: string;
  footerVisible: boolean;
  signupMode: string;
  oauthConfig: Array<{ id: string; name: string; icon: string }>;
  chunkSize: number;
  maxValidity: number;
  maxSize: number;
  authRefreshTime: number;
  defaultValidity: number;
  zipMaxSize: number;
  retryDelays: number[];
  mailEnabled: boolean;
  oauthOnly: boolean;
  aliasMemberEnabled: boolean;
  /** whether the music player gateway is on (the web client hides the player otherwise) */
  playerEnabled: boolean;
  oauthAutoRedirect: boolean;
  proxyAuthEnabled: boolean;
  proxyOnly: boolean;
  hideLoginForm: boolean;
  sharePasswordRequired: boolean;
  /** `webapp.publish-on-upload` (Sharry's name for it) */
  autoPublishEnabled: boolean;
  welcomeMessage: string;
  defaultLanguage: string;
  initialTheme: string;
  defaultTimezone: string;
  initialPage: string;
  /** `backend.auth.password-min-length`: the client shows the rule and checks it before sending */
  passwordMinLength: number;
}

/**
 * Anyone: the settings the web client needs, from configuration. `baseUrl`
 * is the external address of this request (see `base-url`).
 */
export const clientSettings = (config: Config, baseUrl: string): ClientSettings => {
  const { auth, share, signup, mail } = config.backend;
  const w = config.webapp;
  const oauth = Object.entries(auth.oauth)
    .filter(([, p]) => p.enabled)
    .map(([id, p]) => ({ id, name: p.name || id, icon: p.icon }));
  const passwordModules = [auth.fixed, auth.http, auth.httpBasic, auth.command, auth.internal].some((m) => m.enabled);
  return {
    appName: w.appName,
    baseUrl,
    logoUrl: w.appLogo,
    logoUrlDark: w.appLogoDark,
    iconUrl: w.appIcon,
    iconUrlDark: w.appIconDark,
    footerText: w.appFooter,
    footerVisible: w.appFooterVisible,
    signupMode: signup.mode,
    oauthConfig: oauth,
    chunkSize: w.chunkSize,
    maxValidity: share.maxValidity,
    maxSize: share.maxSize,
    authRefreshTime: w.authRenewal,
    defaultValidity: w.defaultValidity,
    zipMaxSize: share.zipMaxSize,
    retryDelays: [...w.retryDelays],
    mailEnabled: mail.enabled,
    oauthOnly: !passwordModules && !auth.proxy.enabled && oauth.length > 0,
    aliasMemberEnabled: config.aliasMemberEnabled,
    playerEnabled: config.player.enabled,
    oauthAutoRedirect: w.oauthAutoRedirect,
    proxyAuthEnabled: auth.proxy.enabled,
    proxyOnly: auth.proxy.enabled && !passwordModules && oauth.length === 0,
    hideLoginForm: !passwordModules && (oauth.length > 0 || auth.proxy.enabled),
    sharePasswordRequired: share.requireSharePassword,
    autoPublishEnabled: w.publishOnUpload,
    welcomeMessage: w.welcomeMessage,
    defaultLanguage: w.defaultLanguage,
    initialTheme: w.initialTheme,
    defaultTimezone: w.defaultTimezone,
    initialPage: w.initialPage,
    passwordMinLength: auth.passwordMinLength,
  };
};
