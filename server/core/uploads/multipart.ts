/**
 * Reads a `multipart/form-data` body part by part (busboy), without buffering
 * files: the part named `meta` (case-insensitive; a field or an attached
 * file) is handed over as text, every other part with a file name (or of type
 * `application/octet-stream`) is a file whose stream is handed over while it
 * arrives; other plain fields are ignored. Parts are handled one after the other. The first failure stops
 * the parsing (the rest of the body is discarded) and, once the running
 * handler has finished, rejects with that failure; malformed bodies reject
 * with `bad-request`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { badRequest } from '../../common/errors.js';

export interface FilePart {
  /** the part's `filename` as sent (may be empty) */
  filename: string;
  /** the part's `Content-Type` */
  mimeType: string;
  stream: Readable;
}

export interface MultipartHandlers {
  /** the `meta` part; `afterFile` tells whether a file part came before it */
  meta(value: string, afterFile: boolean): Promise<void> | void;
  file(part: FilePart): Promise<void>;
}

const META_LIMIT = 1024 * 1024;

/** A small part as text; `bad-request` above `limit` bytes. */
const readText = async (stream: Readable, limit: number): Promise<string> => {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw badRequest('meta', 'The meta part is too large.');
    parts.push(chunk);
  }
  return Buffer.concat(parts, size).toString('utf8');
};

export const readMultipart = (headers: IncomingHttpHeaders, body: Readable, h: MultipartHandlers): Promise<void> => {
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers,
      // browsers send UTF-8 file names; busboy's default would read them as latin1
      defParamCharset: 'utf8',
      limits: { fieldSize: META_LIMIT, fields: 20, fieldNameSize: 200, headerPairs: 100 },
    });
  } catch (e) {
    return Promise.reject(badRequest('body', `A multipart/form-data body is required: ${e instanceof Error ? e.message : String(e)}`));
  }
  return new Promise<void>((resolve, reject) => {
    let chain: Promise<void> = Promise.resolve();
    let failure: unknown;
    let seenFile = false;
    let closed = false;

    const fail = (e: unknown): void => {
      if (failure !== undefined) return;
      failure = e;
      body.unpipe(bb);
      body.resume();
      bb.destroy();
    };
    const step = (work: () => Promise<void> | void, onSkip?: () => void): void => {
      chain = chain.then(async () => {
        if (failure !== undefined) {
          onSkip?.();
          return;
        }
        try {
          await work();
        } catch (e) {
          onSkip?.();
          fail(e);
        }
      });
    };

    bb.on('field', (name, value, info) => {
      if (name.toLowerCase() !== 'meta') return;
      if (info.valueTruncated) {
        fail(badRequest('meta', 'The meta part is too large.'));
        return;
      }
      const afterFile = seenFile;
      step(() => h.meta(value, afterFile));
    });
    bb.on('file', (name, stream, info) => {
      // Busboy destroys the part's stream with the parse error; its handler may not be reading yet.
      stream.on('error', () => undefined);
      const skip = () => stream.resume();
      if (failure !== undefined) return skip();
      if (name.toLowerCase() === 'meta') {
        const afterFile = seenFile;
        step(async () => h.meta(await readText(stream, META_LIMIT), afterFile), skip);
        return;
      }
      seenFile = true;
      // Browsers escape `"`, CR and LF in multipart file names (WHATWG form-data encoding).
      const filename = (info.filename ?? '').replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
      step(() => h.file({ filename, mimeType: info.mimeType, stream }), skip);
    });
    bb.on('error', (e: unknown) => {
      fail(badRequest('body', `Malformed multipart body: ${e instanceof Error ? e.message : String(e)}`));
    });
    bb.on('close', () => {
      if (closed) return;
      closed = true;
      void chain.then(() => (failure === undefined ? resolve() : reject(failure)));
    });
    body.on('error', (e) => {
      fail(badRequest('body', `The request body could not be read: ${e.message}`));
    });
    body.on('close', () => {
      if (!body.readableEnded) fail(badRequest('body', 'The request body ended early.'));
    });
    body.pipe(bb);
  });
};
