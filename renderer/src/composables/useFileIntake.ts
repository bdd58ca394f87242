// A drop zone's and a picker's state and handlers (lib/dropped-files.ts reads the files).
import { ref } from 'vue';
import { filesFromDrop, filesFromInput } from '../lib/dropped-files';
import type { PickedFile } from './useUploader';

/**
 * A drop zone's and a picker's handlers: `reading` while a dropped folder is walked,
 * `over` while something is dragged over; every non-empty pick goes to `take`, and the
 * input is emptied so the same file can be picked again.
 */
export function useFileIntake(take: (files: PickedFile[]) => void) {
  const over = ref(false);
  const reading = ref(false);

  async function onDrop(event: DragEvent): Promise<void> {
    over.value = false;
    if (!event.dataTransfer) return;
    reading.value = true;
    try {
      const files = await filesFromDrop(event.dataTransfer);
      if (files.length) take(files);
    } finally {
      reading.value = false;
    }
  }

  function onPick(event: Event): void {
    const input = event.target as HTMLInputElement;
    const files = filesFromInput(input);
    input.value = '';
    if (files.length) take(files);
  }

  return { over, reading, onDrop, onPick };
}
