import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { badRequest } from '../common/errors.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
  $ref?: string;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> };
  responses?: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown> & { parameters?: Parameter[] }>;
  components?: Record<string, Record<string, unknown>>;
}

/** The OpenAPI file: the one source of the routes and their request shapes. */
export const openApiUrl = new URL('../openapi.yml', import.meta.url);

/** The same document as JSON, written by the build: parsing the YAML at start costs some 30 MB of memory. */
const openApiJsonUrl = new URL('../openapi.json', import.meta.url);

export const loadOpenApi = (): { text: string; doc: OpenApiDocument } => {
  const text = readFileSync(openApiUrl, 'utf8');
  // running from the sources (tests) there is no JSON: the YAML is parsed
  const doc = existsSync(openApiJsonUrl) ? JSON.parse(readFileSync(openApiJsonUrl, 'utf8')) : (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
  return { text, doc: doc as OpenApiDocument };
};

export const httpMethods: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** `/api/v2/sec/share/{id}` → `/api/v2/sec/share/:id` */
export const toExpressPath = (p: string): string => p.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

const describe = (where: string, e: ErrorObject): { field: string; message: string } => {
  const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') {
    const field = [path, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
    return { field, message: `Missing field '${field}' in ${where}.` };
  }
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    const field = [path, extra].filter(Boolean).join('.');
    return { field, message: `Unknown field '${field}' in ${where}.` };
  }
  const field = path || where;
  return { field, message: `Invalid value for '${field}' in ${where}: ${e.message ?? 'invalid'}.` };
};

/**
 * A route that takes JSON reads its body as JSON whatever the `Content-Type`
 * says (`curl -d '{...}'` sends `application/x-www-form-urlencoded`). Pages
 * of other origins are kept out by the origin check, not by the type.
 */
const jsonWhateverItsType = express.json({ limit: '1mb', type: () => true });

/**
 * Registers routes that the OpenAPI file describes, and validates each
 * request's body, query and path parameters against it before the handler
 * runs (400 naming the field). Registering a route that the file does not
 * describe throws at start-up; `registered` lets a test check the reverse.
 */
export class OpenApiRouter {
  readonly registered = new Set<string>();
  private readonly bodyAjv: Ajv;
  private readonly coercingAjv: Ajv;

  constructor(
    private readonly doc: OpenApiDocument,
    private readonly router: Router,
  ) {
    const make = (options: { coerceTypes?: boolean; removeAdditional?: boolean }): Ajv => {
      const ajv = new Ajv({ strict: false, allErrors: false, ...options });
      addFormats(ajv);
      ajv.addFormat('int64', true);
      ajv.addSchema(doc as unknown as object, 'openapi');
      return ajv;
    };
    // A tolerant reader: fields a body schema does not name are dropped, so a
    // handler never sees them (`admin: true` in a sign-up is simply not read).
    this.bodyAjv = make({ removeAdditional: true });
    this.coercingAjv = make({ coerceTypes: true });
  }

  route(method: HttpMethod, path: string, ...handlers: RequestHandler[]): void {
    const item = this.doc.paths[path];
    const op = item?.[method] as Operation | undefined;
    if (!item || !op) throw new Error(`Route ${method.toUpperCase()} ${path} is not described in openapi.yml`);
    this.registered.add(`${method} ${path}`);
    const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => this.deref(p));
    const validate = this.validator(op, params);
    const readJson = op.requestBody?.content?.['application/json'] ? [jsonWhateverItsType] : [];
    this.router[method](toExpressPath(path), ...readJson, validate, ...handlers);
  }

  private deref(p: Parameter): Parameter {
    if (!p.$ref) return p;
    const name = p.$ref.replace('#/components/parameters/', '');
    return (this.doc.components?.['parameters']?.[name] ?? p) as Parameter;
  }

  private compileRef(ajv: Ajv, schema: Record<string, unknown>): ValidateFunction {
    // Resolve `#/components/...` against the whole document registered as `openapi`.
    const text = JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/');
    return ajv.compile(JSON.parse(text) as object);
  }

  /** The route's checks, compiled when the route is first requested: most routes never are. */
  private validator(op: Operation, params: Parameter[]): RequestHandler {
    const bodyRequired = op.requestBody?.required === true;
    const group = (where: 'query' | 'path') => {
      const list = params.filter((p) => p.in === where);
      if (!list.length) return undefined;
      return this.compileRef(this.coercingAjv, {
        type: 'object',
        properties: Object.fromEntries(list.map((p) => [p.name, p.schema ?? {}])),
        required: list.filter((p) => p.required).map((p) => p.name),
      });
    };
    let checks: { body?: ValidateFunction | undefined; query?: ValidateFunction | undefined; path?: ValidateFunction | undefined } | undefined;
    const compile = () => {
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      return { body: bodySchema && this.compileRef(this.bodyAjv, bodySchema), query: group('query'), path: group('path') };
    };
    return (req: Request, res: Response, next: NextFunction) => {
      checks ??= compile();
      const { body, query, path } = checks;
      if (path) {
        const values = { ...req.params };
        if (!path(values)) {
          const d = describe('path', path.errors![0]!);
          return next(badRequest(d.field, d.message));
        }
      }
      if (query) {
        const values: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(req.query)) values[k] = Array.isArray(v) ? v[v.length - 1] : v;
        if (!query(values)) {
          const d = describe('query', query.errors![0]!);
          return next(badRequest(d.field, d.message));
        }
        res.locals['query'] = values;
      }
      if (body) {
        // express.json() leaves the body undefined unless the request carried JSON.
        if (req.body === undefined) {
          if (bodyRequired) return next(badRequest('body', 'A JSON request body is required.'));
        } else if (!body(req.body)) {
          const d = describe('the body', body.errors![0]!);
          return next(badRequest(d.field, d.message));
        }
      }
      next();
    };
  }
}

/** Every operation in the document as `method path`. */
export const documentedRoutes = (doc: OpenApiDocument): string[] =>
  Object.entries(doc.paths).flatMap(([p, item]) =>
    httpMethods.filter((m) => item[m] !== undefined).map((m) => `${m} ${p}`),
  );
