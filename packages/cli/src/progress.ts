/**
 * Upload progress on stderr: only on a terminal (a pipeline's log gets no carriage returns), and
 * only once an upload has taken more than a moment (small uploads print nothing).
 */
import type { Stream } from './output.js';

export interface ProgressOptions {
  /** Quiet for this long before the first line (default 700 ms). */
  delayMs?: number;
  /** At most one redraw per this many ms (default 100 ms). */
  intervalMs?: number;
  now?: () => number;
}

export interface Progress {
  onUploadProgress(sent: number, total: number): void;
  /** Clears the line if one was drawn. */
  done(): void;
}

const MiB = 1024 * 1024;
const size = (bytes: number) => (bytes >= MiB ? `${(bytes / MiB).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`);

export function uploadProgress(stream: Stream, label: string, options: ProgressOptions = {}): Progress {
  const now = options.now ?? Date.now;
  const delayMs = options.delayMs ?? 700;
  const intervalMs = options.intervalMs ?? 100;
  const start = now();
  let drawn = false;
  let lastDraw = Number.NEGATIVE_INFINITY;
  return {
    onUploadProgress(sent, total) {
      if (stream.isTTY !== true) return;
      const t = now();
      if (t - start < delayMs || (t - lastDraw < intervalMs && sent < total)) return;
      lastDraw = t;
      drawn = true;
      const percent = total > 0 ? Math.floor((sent / total) * 100) : 100;
      stream.write(`\r\x1b[K${label}: uploading ${size(sent)} of ${size(total)} (${percent}%)`);
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
