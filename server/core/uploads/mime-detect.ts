/**
 * The MIME type of a completed file, detected from its first bytes with the
 * file name and the uploader's declared type as hints: magic numbers first (`file-type`); generic containers (zip,
 * OLE, XML) yield to a more specific type named by the extension; without
 * magic, the declared type, then the extension (`mime-types`), then a text
 * check, then `application/octet-stream`.
 */
import { fileTypeFromBuffer } from 'file-type';
import mime from 'mime-types';

/** Bytes of the file's beginning the detection looks at. */
export const MIME_HEAD_BYTES = 4100;

const OCTET = 'application/octet-stream';
const containers = new Set(['application/zip', 'application/x-cfb', 'application/xml', 'application/gzip']);

const normalize = (t: string): string => t.split(';')[0]!.trim().toLowerCase();

/** A well-formed `type/subtype` or undefined. */
const wellFormed = (t: string | undefined): string | undefined => {
  if (!t) return undefined;
  const n = normalize(t);
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(n) ? n : undefined;
};

/** Whether the sample looks like text: valid UTF-8 without NUL and with few control characters. */
const looksLikeText = (head: Uint8Array): boolean => {
  if (head.length === 0) return false;
  let text: string;
  try {
    // A multi-byte character may be cut at the end of the sample.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 3)));
  } catch {
    return false;
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return false;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) control++;
  }
  return control * 100 <= text.length;
};

/** The detected type (lower case, without parameters) of a file with first bytes `head`. */
export const detectMime = async (head: Uint8Array, name: string, declared: string): Promise<string> => {
  const byName = wellFormed(mime.lookup(name) || undefined);
  const byDeclared = wellFormed(declared);
  const specificDeclared = byDeclared && byDeclared !== OCTET ? byDeclared : undefined;
  const magic = head.length > 0 ? await fileTypeFromBuffer(head).catch(() => undefined) : undefined;
  if (magic) {
    const m = normalize(magic.mime);
    if (containers.has(m)) return byName && byName !== OCTET ? byName : m;
    return m;
  }
  if (specificDeclared) return specificDeclared;
  if (byName) return byName;
  return looksLikeText(head) ? 'text/plain' : OCTET;
};
