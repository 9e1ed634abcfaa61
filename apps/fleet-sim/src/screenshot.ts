import { crc32, deflateSync } from 'node:zlib';
import type { Rng } from './rng.ts';

/**
 * A phone screenshot of the app's mower screen, drawn pixel by pixel (no image library in the
 * simulator): the app bar, the striped lawn with the mower where it stopped, and the alert card.
 * Real PNG bytes, so the platform's sniffing and re-encoding treat it like a user's screenshot.
 */
export function appScreenshotPng(rng: Rng, opts: { width?: number; height?: number; alert?: boolean } = {}): Buffer {
  const width = opts.width ?? 270;
  const height = opts.height ?? 480;
  const rgb = Buffer.alloc(width * height * 3);
  const set = (x: number, y: number, [r, g, b]: readonly number[]) => {
    const i = (y * width + x) * 3;
    rgb[i] = r!;
    rgb[i + 1] = g!;
    rgb[i + 2] = b!;
  };
  const mower = { x: Math.floor(width * (0.2 + 0.6 * rng())), y: Math.floor(height * (0.2 + 0.4 * rng())) };
  const stripe = 12 + Math.floor(rng() * 8);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (y < 40) set(x, y, [22, 93, 60]);
      else if (y > height - 110) {
        const card = x > 12 && x < width - 12 && y > height - 100 && y < height - 12;
        const line = card && x < width - 60 && (y - (height - 84)) % 18 < 6 && y < height - 30;
        set(x, y, line ? [160, 160, 160] : card ? [255, 255, 255] : [236, 239, 241]);
      } else {
        const dark = Math.floor(x / stripe) % 2 === 0;
        set(x, y, dark ? [88, 160, 72] : [104, 178, 86]);
      }
      const dx = x - mower.x;
      const dy = y - mower.y;
      if (dx * dx + dy * dy < 64) set(x, y, opts.alert === false ? [40, 40, 40] : [214, 48, 49]);
    }
  }
  return encodePng(width, height, rgb);
}

function encodePng(width: number, height: number, rgb: Buffer): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) rgb.copy(rows, y * (width * 3 + 1) + 1, y * width * 3, (y + 1) * width * 3);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
