import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { loadOpenApi, toExpressPath, type OpenApiDocument } from '../../server/http/openapi.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const { doc } = loadOpenApi();
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('int64', true);
ajv.addSchema(doc as unknown as object, 'openapi');

const cache = new Map<string, ValidateFunction | null>();

type Responses = Record<string, { $ref?: string; content?: Record<string, { schema?: object }> }>;

/** The documented path template that matches a concrete request path. */
export const matchDocumentedPath = (path: string, d: OpenApiDocument = doc): string | undefined =>
  Object.keys(d.paths).find((p) =>
    new RegExp(`^${toExpressPath(p).replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`).test(path),
  );

const responseValidator = (method: string, template: string, status: number): ValidateFunction | null => {
  const key = `${method} ${template} ${status}`;
  if (cache.has(key)) return cache.get(key)!;
  const op = doc.paths[template]?.[method] as { responses?: Responses } | undefined;
  let resp = op?.responses?.[String(status)];
  if (resp?.$ref) {
    const name = resp.$ref.replace('#/components/responses/', '');
    resp = (doc.components?.['responses'] as Responses | undefined)?.[name];
  }
  const schema = resp?.content?.['application/json']?.schema;
  const v = schema
    ? ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/')) as object)
    : null;
  cache.set(key, v);
  return v;
};

/**
 * Fails when a response's status is not documented for the route, or its
 * JSON body does not match the documented schema.
 */
export const checkResponse = (method: string, path: string, status: number, body: unknown, statusOnly = false): void => {
  const template = matchDocumentedPath(path);
  if (!template) throw new Error(`${method.toUpperCase()} ${path} is not in openapi.yml`);
  const op = doc.paths[template]?.[method] as { responses?: Responses } | undefined;
  if (!op) throw new Error(`${method.toUpperCase()} ${template} is not in openapi.yml`);
  if (!op.responses?.[String(status)]) {
    throw new Error(`${method.toUpperCase()} ${template} answered ${status}, which openapi.yml does not document`);
  }
  const v = statusOnly ? null : responseValidator(method, template, status);
  if (v && !v(body)) {
    throw new Error(
      `${method.toUpperCase()} ${path} ${status}: body does not match openapi.yml: ${ajv.errorsText(v.errors)}\n${JSON.stringify(body)}`,
    );
  }
};
