/** A rectangle in some element's pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The guide box's share of the camera view's width, and a plate's proportions around it (US plates are 12 × 6 in). */
export const GUIDE_WIDTH_SHARE = 0.8;
export const GUIDE_ASPECT = 2.2;

/** The guide box in the view (centred), in the view's CSS pixels. */
export function guideBoxInView(viewWidth: number, viewHeight: number): Box {
  const width = Math.min(viewWidth * GUIDE_WIDTH_SHARE, viewHeight * 0.8 * GUIDE_ASPECT);
  const height = width / GUIDE_ASPECT;
  return { x: (viewWidth - width) / 2, y: (viewHeight - height) / 2, width, height };
}

/**
 * The same box in the camera frame's own pixels, for a video shown with `object-fit: cover` (scaled to fill the view,
 * centred, the overflow cut off): what the officer sees inside the box is what is read.
 */
export function guideBoxInFrame(view: { width: number; height: number }, frame: { width: number; height: number }): Box {
  const box = guideBoxInView(view.width, view.height);
  const scale = Math.max(view.width / frame.width, view.height / frame.height);
  const offsetX = (view.width - frame.width * scale) / 2;
  const offsetY = (view.height - frame.height * scale) / 2;
  const x = Math.max(0, (box.x - offsetX) / scale);
  const y = Math.max(0, (box.y - offsetY) / scale);
  return {
    x: Math.round(x),
    y: Math.round(y),
    width: Math.round(Math.min(frame.width - x, box.width / scale)),
    height: Math.round(Math.min(frame.height - y, box.height / scale)),
  };
}
