/** A one-channel image: 0 black … 255 white, row by row. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The part of `ImageData` the reader needs (a camera frame's crop, or a test's rendered plate). */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray | Uint8Array;
}

export function greyOf(image: RgbaImage): GreyImage {
  const { width, height, data } = image;
  const grey = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += 4) {
    // Rec. 601 luma in integers: plates are read by contrast, not colour.
    grey[i] = (data[p]! * 77 + data[p + 1]! * 150 + data[p + 2]! * 29) >> 8;
  }
  return { width, height, data: grey };
}

/** Bilinear resampling to `height` rows, keeping the aspect; an average over each source step when shrinking a lot. */
export function scaledToHeight(image: GreyImage, height: number): GreyImage {
  return resized(image, Math.max(1, Math.round((image.width * height) / image.height)), height);
}

/** Bilinear resampling to `width` × `height`; an average over each source step first when shrinking a lot. */
export function resized(image: GreyImage, width: number, height: number): GreyImage {
  if (width === image.width && height === image.height) return image;
  const scale = Math.min(height / image.height, width / image.width);
  const source = scale < 0.5 ? boxShrunk(image, Math.floor(1 / scale)) : image;
  const sx = source.width / width;
  const sy = source.height / height;
  const out = new Uint8Array(width * height);
  // Per output column: its two source columns and the weight of the right one, in 1/256ths.
  const left = new Int32Array(width);
  const right = new Int32Array(width);
  const weight = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(source.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
    left[x] = Math.floor(fx);
    right[x] = Math.min(source.width - 1, left[x]! + 1);
    weight[x] = Math.round((fx - left[x]!) * 256);
  }
  const d = source.data;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(source.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const row0 = y0 * source.width;
    const row1 = Math.min(source.height - 1, y0 + 1) * source.width;
    const wy = Math.round((fy - y0) * 256);
    for (let x = 0; x < width; x++) {
      const wx = weight[x]!;
      const top = d[row0 + left[x]!]! * (256 - wx) + d[row0 + right[x]!]! * wx;
      const bottom = d[row1 + left[x]!]! * (256 - wx) + d[row1 + right[x]!]! * wx;
      out[y * width + x] = (top * (256 - wy) + bottom * wy + 32768) >> 16;
    }
  }
  return { width, height, data: out };
}

function boxShrunk(image: GreyImage, factor: number): GreyImage {
  const width = Math.max(1, Math.floor(image.width / factor));
  const height = Math.max(1, Math.floor(image.height / factor));
  const out = new Uint8Array(width * height);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * image.width + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += image.data[row + dx]!;
      }
      out[y * width + x] = Math.round(sum / area);
    }
  }
  return { width, height, data: out };
}

/** Stretches the 2nd–98th percentile of brightness to the full range: a dim night frame or a washed-out one alike. */
export function contrastStretched(image: GreyImage): GreyImage {
  const histogram = new Uint32Array(256);
  const { data: values } = image;
  for (let i = 0; i < values.length; i++) histogram[values[i]!]!++;
  const low = percentile(histogram, image.data.length, 0.02);
  const high = percentile(histogram, image.data.length, 0.98);
  if (high - low < 8) return image;
  const out = new Uint8Array(image.data.length);
  const span = high - low;
  const table = new Uint8Array(256);
  for (let value = 0; value < 256; value++) table[value] = Math.max(0, Math.min(255, Math.round(((value - low) * 255) / span)));
  const { data } = image;
  for (let i = 0; i < out.length; i++) out[i] = table[data[i]!]!;
  return { ...image, data: out };
}

function percentile(histogram: Uint32Array, count: number, share: number): number {
  const target = count * share;
  let seen = 0;
  for (let value = 0; value < 256; value++) {
    seen += histogram[value]!;
    if (seen >= target) return value;
  }
  return 255;
}

/** Rotated by `degrees` about the centre (positive: clockwise on screen), white where the source has no pixel. */
export function rotated(image: GreyImage, degrees: number): GreyImage {
  if (degrees === 0) return image;
  const { width, height, data } = image;
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const out = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Inverse mapping: where in the source this output pixel comes from.
      const dx = x - cx;
      const dy = y - cy;
      const sx = cos * dx + sin * dy + cx;
      const sy = -sin * dx + cos * dy + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) continue;
      const wx = sx - x0;
      const wy = sy - y0;
      const top = data[y0 * width + x0]! * (1 - wx) + data[y0 * width + x0 + 1]! * wx;
      const bottom = data[(y0 + 1) * width + x0]! * (1 - wx) + data[(y0 + 1) * width + x0 + 1]! * wx;
      out[y * width + x] = Math.round(top * (1 - wy) + bottom * wy);
    }
  }
  return { width, height, data: out };
}
