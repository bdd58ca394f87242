import type { Express } from 'express';
import { IncomingMessage, ServerResponse } from 'node:http';

export interface RequestClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/**
 * Request and response classes for the node:http server, whose instances are
 * born with the prototypes express gives them. Express sets the prototype of
 * every request and answer as it starts handling them; changing an object's
 * prototype turns every later property access on it, in express and in
 * Node's HTTP layer alike, into a slow lookup. With these classes the
 * prototypes already are the app's `request` and `response`, and express'
 * change does nothing. A server built without them works the same, only
 * slower.
 */
export const requestClasses = (app: Express): RequestClasses => {
  class Request extends IncomingMessage {}
  class Response<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {}
  Object.setPrototypeOf(Request.prototype, app.request);
  Object.setPrototypeOf(Response.prototype, app.response);
  app.request = Request.prototype as Express['request'];
  app.response = Response.prototype as Express['response'];
  return { IncomingMessage: Request, ServerResponse: Response };
};
