import { describe, expect, it } from 'vitest';
import { uploadProgress } from '../src/progress.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (text: string) => writes.push(text) };
}

describe('uploadProgress', () => {
  it('prints nothing when stderr is not a terminal', () => {
    const s = stream(false);
    let t = 0;
    const p = uploadProgress(s, 'blend', { now: () => t });
    t = 5000;
    p.onUploadProgress(10, 100);
    p.done();
    expect(s.writes).toEqual([]);
  });

  it('stays quiet for a quick upload, then draws and clears its line', () => {
    const s = stream(true);
    let t = 0;
    const p = uploadProgress(s, 'image-to-video', { now: () => t, delayMs: 700, intervalMs: 100 });
    t = 100;
    p.onUploadProgress(1024, 4 * 1024 * 1024);
    expect(s.writes).toEqual([]);
    t = 800;
    p.onUploadProgress(2 * 1024 * 1024, 4 * 1024 * 1024);
    t = 850; // too soon for another redraw
    p.onUploadProgress(3 * 1024 * 1024, 4 * 1024 * 1024);
    t = 860; // the last chunk always draws
    p.onUploadProgress(4 * 1024 * 1024, 4 * 1024 * 1024);
    p.done();
    expect(s.writes).toEqual([
      '\r\x1b[Kimage-to-video: uploading 2.0 MiB of 4.0 MiB (50%)',
      '\r\x1b[Kimage-to-video: uploading 4.0 MiB of 4.0 MiB (100%)',
      '\r\x1b[K',
    ]);
  });
});
