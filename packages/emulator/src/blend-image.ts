/**
 * A real blend: decode each image (PNG with pngjs, JPEG with jpeg-js), sample it to one common
 * size, average the pixels, encode a PNG. Images it cannot decode (other formats, corrupt or huge
 * ones) are drawn as a checkerboard whose colours come from the image's SHA-256, so the result is
 * still deterministic, and the caller is told which ones.
 */
import { createHash } from 'node:crypto';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** Output sizes for the blend `dimensions` values (the spec shows the names, not the pixels). */
export const OUTPUT_SIZES: Readonly<Record<string, readonly [number, number]>> = {
  PORTRAIT: [512, 768],
  SQUARE: [512, 512],
  LANDSCAPE: [768, 512],
};
/** Without `dimensions`, the first decoded image's shape, scaled to fit this many pixels a side. */
const MAX_SIDE = 768;
/** Larger images are not decoded (memory); they become placeholders. */
const MAX_DECODE_PIXELS = 40_000_000;

export interface BlendInputImage {
  mime: string;
  bytes: Buffer;
}

export interface BlendedImage {
  png: Buffer;
  /** Each input as received: declared type, size and SHA-256. */
  inputs: { mime: string; bytes: number; sha256: string }[];
  width: number;
  height: number;
  /** Why each image that was drawn as a placeholder could not be decoded, by index. */
  placeholders: { index: number; reason: string }[];
}

interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

function pngSize(bytes: Buffer): number {
  // Signature (8), chunk length (4), "IHDR" (4), then width and height, big-endian.
  return bytes.length >= 24 ? bytes.readUInt32BE(16) * bytes.readUInt32BE(20) : 0;
}

function decode(image: BlendInputImage): Pixels | string {
  try {
    if (image.mime === 'image/png') {
      if (pngSize(image.bytes) > MAX_DECODE_PIXELS) return 'larger than the emulator decodes';
      return PNG.sync.read(image.bytes);
    }
    if (image.mime === 'image/jpeg') {
      return jpeg.decode(image.bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: MAX_DECODE_PIXELS / 1e6,
        maxMemoryUsageInMB: 1024,
      });
    }
    return `${image.mime} is not decoded by the emulator (PNG and JPEG are)`;
  } catch (error) {
    return `could not be decoded (${(error as Error).message})`;
  }
}

function fit(width: number, height: number): [number, number] {
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
}

/** Adds `source`, sampled nearest-neighbour to the accumulator's size. */
function accumulate(sum: Uint32Array, width: number, height: number, source: Pixels): void {
  for (let y = 0; y < height; y++) {
    const sy = Math.min(source.height - 1, Math.floor(((y + 0.5) * source.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(source.width - 1, Math.floor(((x + 0.5) * source.width) / width));
      const from = (sy * source.width + sx) * 4;
      const to = (y * width + x) * 4;
      for (let c = 0; c < 4; c++) sum[to + c]! += source.data[from + c]!;
    }
  }
}

/** A checkerboard of two colours taken from the image's hash. */
function placeholder(hash: Buffer, width: number, height: number): Pixels {
  const data = new Uint8Array(width * height * 4);
  const square = 32;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const offset = (Math.floor(x / square) + Math.floor(y / square)) % 2 === 0 ? 0 : 3;
      const at = (y * width + x) * 4;
      // Byte by byte: a `data.set([...])` per pixel allocated an array each time (profiled: most of a blend).
      data[at] = hash[offset]!;
      data[at + 1] = hash[offset + 1]!;
      data[at + 2] = hash[offset + 2]!;
      data[at + 3] = 255;
    }
  }
  return { width, height, data };
}

/** Images are taken one at a time from `images`, so only one is decoded (or even held) at once. */
export function blendImages(images: Iterable<BlendInputImage>, dimensions?: string): BlendedImage {
  let size = dimensions ? OUTPUT_SIZES[dimensions] : undefined;
  let sum: Uint32Array | undefined;
  const inputs: BlendedImage['inputs'] = [];
  const placeholders: (BlendedImage['placeholders'][number] & { hash: Buffer })[] = [];
  for (const image of images) {
    const hash = createHash('sha256').update(image.bytes).digest();
    const index = inputs.push({ mime: image.mime, bytes: image.bytes.length, sha256: hash.toString('hex') }) - 1;
    const pixels = decode(image);
    if (typeof pixels === 'string') {
      placeholders.push({ index, reason: pixels, hash });
      continue;
    }
    size ??= fit(pixels.width, pixels.height);
    sum ??= new Uint32Array(size[0] * size[1] * 4);
    accumulate(sum, size[0], size[1], pixels);
  }
  const [width, height] = size ?? OUTPUT_SIZES.SQUARE!;
  sum ??= new Uint32Array(width * height * 4);
  for (const { hash } of placeholders) accumulate(sum, width, height, placeholder(hash, width, height));

  const png = new PNG({ width, height });
  const n = Math.max(1, inputs.length);
  for (let i = 0; i < sum.length; i++) png.data[i] = Math.round(sum[i]! / n);
  return {
    png: PNG.sync.write(png),
    inputs,
    width,
    height,
    placeholders: placeholders.map(({ index, reason }) => ({ index, reason })),
  };
}
