// Files chosen on one page (dropped on the home page, picked there) and handed to the
// page that uploads them: the drop zone of the target page takes them when it appears.
import type { PickedFile } from '../composables/useUploader';

let pending: { route: string; files: PickedFile[] } | null = null;

/** Keeps `files` for the drop zone of the route named `route` (replacing earlier ones). */
export function handOffFiles(route: string, files: PickedFile[]): void {
  pending = files.length ? { route, files } : null;
}

/** The files handed to `route`, once; an empty list when there are none for it. */
export function takeHandedOffFiles(route: unknown): PickedFile[] {
  if (!pending || pending.route !== route) return [];
  const { files } = pending;
  pending = null;
  return files;
}
