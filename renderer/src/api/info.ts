// Calls of the server's information routes (`/api/v2/open/info/...`, `/api/v2/sec/info/...`).
import { apiFetch } from './http.js';
import type { Addresses, AppConfig } from './types.js';

/** The client settings; anyone may ask. */
export const getAppConfig = (): Promise<AppConfig> => apiFetch<AppConfig>('/api/v2/open/info/appconfig');

/** Where other devices on the network reach the server (signed-in users only). */
export const getAddresses = (): Promise<Addresses> => apiFetch<Addresses>('/api/v2/sec/info/addresses', { noAuthRedirect: true });
