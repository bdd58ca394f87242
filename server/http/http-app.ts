import express, { type Express } from 'express';
import { notFound } from '../common/errors.js';
import { errorHandler } from './error-mapping.js';
import type { HttpDeps, RouteModule } from './http-deps.js';
import { refuseForeignHosts } from './host-check.js';
import { loadOpenApi, OpenApiRouter } from './openapi.js';
import { requestClasses, type RequestClasses } from './request-classes.js';
import { accountRoutes } from './routes/accounts.routes.js';
import { addressRoutes } from './routes/addresses.routes.js';
import { aliasGuestRoutes, requireAlias } from './routes/alias-guest.routes.js';
import { aliasRoutes } from './routes/aliases.routes.js';
import { coverPathRewrite, coverRoutes } from './routes/covers.routes.js';
import { customRouter } from './routes/custom.routes.js';
import { authRoutes } from './routes/auth.routes.js';
import { docsRouter } from './routes/docs.routes.js';
import { downloadRoutes } from './routes/downloads.routes.js';
import { infoRoutes } from './routes/info.routes.js';
import { mailRoutes } from './routes/mail.routes.js';
import { openShareRoutes } from './routes/open-shares.routes.js';
import { playerPrefixes, playerZone } from './player-access.js';
import { playerRoutes } from './routes/player.routes.js';
import { requireRoomOwner, roomRoutes } from './routes/rooms.routes.js';
import { createRoomSockets, roomSocketPath } from './room-sockets.js';
import { settingsRoutes } from './routes/settings.routes.js';
import { shareRoutes } from './routes/shares.routes.js';
import { signupRoutes } from './routes/signup.routes.js';
import { uploadRoutes } from './routes/uploads.routes.js';
import { webAppRouter } from './static-app.js';
import { createPlayerSockets, type PlayerSockets } from './websocket.js';
import { refuseCrossOrigin, refuseCrossSite, requireAdmin, requireUser } from './zones.js';

/** The open routes that sign a browser in or create an account. */
const openSignInPaths = ['/api/v2/open/auth/login', '/api/v2/open/auth/proxy', '/api/v2/open/signup/register'];

// The player's command route first: it is the one clients call many times a second, and routes are matched in order.
const routeModules: RouteModule[] = [
  playerRoutes,
  infoRoutes,
  addressRoutes,
  authRoutes,
  signupRoutes,
  settingsRoutes,
  accountRoutes,
  shareRoutes,
  openShareRoutes,
  downloadRoutes,
  uploadRoutes,
  aliasRoutes,
  aliasGuestRoutes,
  mailRoutes,
  coverRoutes,
  roomRoutes,
];

export interface HttpApp {
  app: Express;
  /** `method path` of every API route, to compare with the OpenAPI file */
  routes: ReadonlySet<string>;
  /** the player WebSocket: attach `upgrade` to the node:http server; `close` ends every socket */
  sockets: PlayerSockets;
  /** the node:http server's request and response classes (`requestClasses`) */
  classes: RequestClasses;
}

/**
 * The express application: access zones applied once per prefix, the API
 * routes from the OpenAPI file, the web client, the API docs, and the one
 * error handler.
 */
export const createHttpApp = (deps: HttpDeps): HttpApp => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  // A name that is none of the server's own (DNS rebinding) gets 421 before anything else runs.
  app.use(refuseForeignHosts(deps.links));
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  // Pages of other origins do not act with the session cookie (CSRF); refused before any body is read.
  app.use(refuseCrossOrigin(deps.links));
  // Routes that need no cookie to act for a browser: sign-in, sign-up and the gateway (open access).
  app.use([...openSignInPaths, ...playerPrefixes], refuseCrossSite(deps.links));

  // Zones: authentication is applied once per prefix.
  app.use('/api/v2/sec', requireUser(deps.auth));
  app.use('/api/v2/admin', requireUser(deps.auth), requireAdmin);
  app.use('/api/v2/alias', requireAlias(deps.aliases, deps.origin));
  app.use(coverPathRewrite);
  app.use(playerPrefixes, playerZone(deps));
  app.use('/api/v1/rooms', playerZone(deps), requireRoomOwner);

  const api = express.Router();
  const openapi = loadOpenApi();
  const registrar = new OpenApiRouter(openapi.doc, api);
  for (const m of routeModules) m(registrar, deps);
  app.use(api);

  app.use('/api/doc', docsRouter(openapi.text));
  app.get('/', (_req, res) => {
    res.redirect(303, '/app');
  });
  app.use('/app', webAppRouter(deps.config, deps.links, (pid) => deps.shares.linkPreview(pid)));
  app.use('/custom', customRouter(deps.config.customContent, deps.log.child('custom')));

  app.use((_req, _res, next) => {
    next(notFound('The requested resource'));
  });
  app.use(errorHandler(deps.log.child('http')));
  return { app, routes: registrar.registered, sockets: bothSockets(createPlayerSockets(deps), createRoomSockets(deps)), classes: requestClasses(app) };
};

/** The player's and the rooms' WebSockets on one `upgrade` listener, by path. */
const bothSockets = (player: PlayerSockets, rooms: PlayerSockets): PlayerSockets => ({
  upgrade(req, socket, head) {
    if (roomSocketPath.test(req.url ?? '')) rooms.upgrade(req, socket, head);
    else player.upgrade(req, socket, head);
  },
  close() {
    player.close();
    rooms.close();
  },
});
