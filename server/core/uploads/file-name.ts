/**
 * The name an uploaded file is kept under: the last segment of what the
 * client sent (no folders, no `..`: a name can never point anywhere), without
 * control characters, at most 255 characters, `file` when nothing is left.
 * The file-system store and the ZIP writer make their own names safe again.
 */
export const cleanFileName = (raw: string | null | undefined): string => {
  // eslint-disable-next-line no-control-regex
  const noControl = (raw ?? '').replace(/[\u0000-\u001f\u007f]/g, '');
  const last = noControl.split(/[/\\]/).pop()!.trim();
  if (last === '' || last === '.' || last === '..') return 'file';
  const chars = [...last];
  if (chars.length <= 255) return last;
  // keep the extension when cutting
  const dot = last.lastIndexOf('.');
  const ext = dot > 0 && last.length - dot <= 16 ? last.slice(dot) : '';
  return chars.slice(0, 255 - [...ext].length).join('') + ext;
};

/** A `Service-File-Name` header value: percent-encoded UTF-8; undefined when it is not valid. */
export const decodeHeaderName = (value: string): string | undefined => {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
};
