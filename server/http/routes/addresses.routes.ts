import { reachableAddresses } from '../../core/info/addresses.js';
import type { RouteModule } from '../http-deps.js';

export const addressRoutes: RouteModule = (api, { config }) => {
  // the port this request came in on is the one the server listens on (also when `bind.port` is 0)
  api.route('get', '/api/v2/sec/info/addresses', (req, res) => {
    res.json(
      reachableAddresses({
        bindAddress: config.bind.address,
        baseUrl: config.baseUrl,
        baseUrlIsLocal: config.baseUrlIsLocal,
        port: req.socket.localPort ?? config.bind.port,
      }),
    );
  });
};
