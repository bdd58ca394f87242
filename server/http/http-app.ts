import cookieParser from 'cookie-parser';
import express, { type Express } from 'express';
import { notFound } from '../common/errors.js';
import { errorHandler } from './error-mapping.js';
import type { HttpDeps, RouteModule } from './http-deps.js';
import { loadOpenApi, OpenApiRouter } from './openapi.js';
import { accountRoutes } from './routes/accounts.routes.js';
import { authRoutes } from './routes/auth.routes.js';
import { docsRouter } from './routes/docs.routes.js';
import { infoRoutes } from './routes/info.routes.js';
import { settingsRoutes } from './routes/settings.routes.js';
import { signupRoutes } from './routes/signup.routes.js';
import { webAppRouter } from './static-app.js';
import { requireAdmin, requireUser } from './zones.js';

const routeModules: RouteModule[] = [infoRoutes, authRoutes, signupRoutes, settingsRoutes, accountRoutes];

export interface HttpApp {
  app: Express;
  /** `method path` of every API route, to compare with the OpenAPI file */
  routes: ReadonlySet<string>;
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

  app.use(cookieParser());
  app.use(express.json({ limit: '1mb' }));
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });

  // Zones: authentication is applied once per prefix.
  app.use('/api/v2/sec', requireUser(deps.auth));
  app.use('/api/v2/admin', requireUser(deps.auth), requireAdmin);

  const api = express.Router();
  const openapi = loadOpenApi();
  const registrar = new OpenApiRouter(openapi.doc, api);
  for (const m of routeModules) m(registrar, deps);
  app.use(api);

  app.use('/api/doc', docsRouter(openapi.text));
  app.get('/', (_req, res) => {
    res.redirect(303, '/app');
  });
  app.use('/app', webAppRouter());

  app.use((_req, _res, next) => {
    next(notFound('The requested resource'));
  });
  app.use(errorHandler(deps.log.child('http')));
  return { app, routes: registrar.registered };
};
