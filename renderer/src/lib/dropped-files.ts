// Reading what was dropped: loose files and whole folders (webkitGetAsEntry), with
// each file's path inside the dropped folder.
import type { PickedFile } from '../composables/useUploader';

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function childrenOf(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  // readEntries answers in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await fileOf(entry as FileSystemFileEntry);
    out.push({ file, name: prefix + file.name });
  } else if (entry.isDirectory) {
    for (const child of await childrenOf(entry as FileSystemDirectoryEntry)) {
      await walk(child, `${prefix}${entry.name}/`, out);
    }
  }
}

/** The files of a drop, folders expanded recursively. */
export async function filesFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) loose.push(f);
    }
  }
  if (entries.length === 0 && loose.length === 0) return Array.from(data.files).map((file) => ({ file, name: file.name }));
  const out: PickedFile[] = loose.map((file) => ({ file, name: file.name }));
  for (const entry of entries) await walk(entry, '', out);
  return out;
}

/** The files of an `<input type=file>` (with `webkitdirectory`, their relative paths). */
export function filesFromInput(input: HTMLInputElement): PickedFile[] {
  return Array.from(input.files ?? []).map((file) => ({ file, name: file.webkitRelativePath || file.name }));
}
