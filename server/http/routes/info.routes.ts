import { clientSettings } from '../../core/info/client-settings.js';
import type { RouteModule } from '../http-deps.js';

export const infoRoutes: RouteModule = (api, { config, version, links }) => {
  api.route('get', '/api/v2/open/info/version', (_req, res) => {
    res.json(version);
  });
  api.route('get', '/api/v2/open/info/appconfig', (req, res) => {
    res.json(clientSettings(config, links.baseUrl(req)));
  });
};
