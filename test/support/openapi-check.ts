import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { loadOpenApi, toExpressPath, type OpenApiDocument } from '../../server/http/openapi.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const { doc } = loadOpenApi();

/**
 * Strict ajv (unknown keywords, loose types and `required` names without a
 * property are errors) over the document's schemas, registered as `openapi`.
 */
const ajv = new Ajv({ strict: true, allErrors: true });
addFormats(ajv);
ajv.addFormat('int64', true);
const toLocalRefs = (schema: unknown): object =>
  JSON.parse(JSON.stringify(schema).replace(/"#\/components\/schemas\//g, '"openapi#/$defs/')) as object;
ajv.addSchema({ $id: 'openapi', $defs: toLocalRefs(doc.components?.['schemas'] ?? {}) });

const cache = new Map<string, ValidateFunction | null>();

type Responses = Record<string, { $ref?: string; content?: Record<string, { schema?: object }> }>;

/** The documented path template that matches a concrete request path. */
export const matchDocumentedPath = (path: string, d: OpenApiDocument = doc): string | undefined =>
  Object.keys(d.paths).find((p) =>
    new RegExp(`^${toExpressPath(p).replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`).test(path),
  );

const documentedResponse = (method: string, template: string, status: number) => {
  const op = doc.paths[template]?.[method] as { responses?: Responses } | undefined;
  const resp = op?.responses?.[String(status)];
  if (!resp?.$ref) return resp;
  return (doc.components?.['responses'] as Responses | undefined)?.[resp.$ref.replace('#/components/responses/', '')];
};

/** The media types documented for a route (concrete path or template) and status; empty when none. */
export const documentedMediaTypes = (method: string, path: string, status: number): string[] => {
  const template = matchDocumentedPath(path);
  return template ? Object.keys(documentedResponse(method, template, status)?.content ?? {}) : [];
};

const responseValidator = (method: string, template: string, status: number): ValidateFunction | null => {
  const key = `${method} ${template} ${status}`;
  if (cache.has(key)) return cache.get(key)!;
  const schema = documentedResponse(method, template, status)?.content?.['application/json']?.schema;
  const v = schema ? ajv.compile(toLocalRefs(schema)) : null;
  cache.set(key, v);
  return v;
};

/**
 * Fails when a response's status is not documented for the route, when a JSON
 * answer has no JSON schema documented for its route and status, or when its
 * body does not match that schema.
 */
export const checkResponse = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  statusOnly = false,
  contentType = '',
): void => {
  const template = matchDocumentedPath(path);
  const name = `${method.toUpperCase()} ${template ?? path}`;
  if (!template) throw new Error(`${name} is not in openapi.yml`);
  const op = doc.paths[template]?.[method] as { responses?: Responses } | undefined;
  if (!op) throw new Error(`${name} is not in openapi.yml`);
  if (!op.responses?.[String(status)]) throw new Error(`${name} answered ${status}, which openapi.yml does not document`);
  if (statusOnly) return;
  const v = responseValidator(method, template, status);
  if (!v) {
    if (contentType.includes('application/json')) {
      throw new Error(`${name} answered ${status} with JSON, but openapi.yml has no JSON schema for it:\n${JSON.stringify(body)}`);
    }
    return;
  }
  if (!v(body)) {
    throw new Error(`${method.toUpperCase()} ${path} ${status}: body does not match openapi.yml: ${ajv.errorsText(v.errors)}\n${JSON.stringify(body)}`);
  }
};
