// The check before sending: which of the chosen files the share or upload link would
// refuse for want of room. Follows the selection: removing a file updates the list.
import { computed, ref, type Ref } from 'vue';
import { refusals } from '../lib/upload-progress';
import { heldUploads } from '../lib/upload-resume';
import type { PickedFile } from './useUploader';

export function useUploadCheck(files: Ref<PickedFile[]>) {
  /** the room found by the last check, and the endpoint whose stored uploads hold their room already */
  const checked = ref<{ room: number; endpoint: string | null } | null>(null);

  const refused = computed(() => {
    const c = checked.value;
    if (!c) return [];
    const held = c.endpoint ? heldUploads(c.endpoint, files.value) : [];
    return refusals(files.value.map((f) => f.file.size), c.room, held);
  });
  const room = computed(() => checked.value?.room ?? 0);

  /** Whether every file fits into `room` bytes; otherwise `refused` names the ones that do not. */
  function fits(roomLeft: number, endpoint: string | null = null): boolean {
    checked.value = { room: roomLeft, endpoint };
    if (refused.value.length > 0) return false;
    checked.value = null;
    return true;
  }

  /** Leaves the refused files out of the selection. */
  function removeRefused(): void {
    const out = new Set(refused.value.map((r) => r.index));
    files.value = files.value.filter((_, i) => !out.has(i));
    checked.value = null;
  }

  function dismiss(): void {
    checked.value = null;
  }

  return { refused, room, fits, removeRefused, dismiss };
}
