/** Two small, real PNGs drawn at runtime for the demo (no binary fixtures to keep in the repo). */
import { PNG } from 'pngjs';

type Paint = (x: number, y: number, width: number, height: number) => [number, number, number];

function draw(width: number, height: number, paint: Paint): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const [r, g, b] = paint(x, y, width, height);
      png.data[i] = r;
      png.data[i + 1] = g;
      png.data[i + 2] = b;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** A sunset: a warm sky gradient with a sun. */
const sunset: Paint = (x, y, w, h) => {
  const t = y / h;
  const inSun = (x - w * 0.5) ** 2 + (y - h * 0.62) ** 2 < (h * 0.18) ** 2;
  if (inSun) return [255, 236, 140];
  return [Math.round(250 - 90 * t), Math.round(150 - 110 * t), Math.round(70 + 110 * t)];
};

/** The sea: blue-green waves. */
const waves: Paint = (x, y, _w, h) => {
  const wave = Math.sin(x / 9 + Math.sin(y / 13) * 2) * 0.5 + 0.5;
  return [Math.round(20 + 40 * wave), Math.round(90 + 90 * wave), Math.round(140 + 90 * (y / h))];
};

export function sampleImages(): { name: string; bytes: Buffer }[] {
  return [
    { name: 'sunset.png', bytes: draw(160, 120, sunset) },
    { name: 'waves.png', bytes: draw(160, 120, waves) },
  ];
}
