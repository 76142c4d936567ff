import { describe, expect, it } from 'vitest';
import { GUIDE_ASPECT, guideBoxInFrame, guideBoxInView } from './guide-box';

describe('the guide box', () => {
  it('is centred in the view with a plate’s proportions', () => {
    const box = guideBoxInView(400, 300);
    expect(box.width).toBeCloseTo(320);
    expect(box.width / box.height).toBeCloseTo(GUIDE_ASPECT);
    expect(box.x).toBeCloseTo((400 - box.width) / 2);
    expect(box.y).toBeCloseTo((300 - box.height) / 2);
  });

  it('is read from the same part of a frame shown with object-fit: cover', () => {
    // A 1280 × 720 frame in a 4:3 view: scaled by 300/720, its sides cut off; the box maps back to frame pixels.
    const view = { width: 400, height: 300 };
    const frame = { width: 1280, height: 720 };
    const inView = guideBoxInView(view.width, view.height);
    const inFrame = guideBoxInFrame(view, frame);
    const scale = 300 / 720;
    const cut = (1280 * scale - 400) / 2;
    expect(inFrame.x).toBe(Math.round((inView.x + cut) / scale));
    expect(inFrame.y).toBe(Math.round(inView.y / scale));
    expect(inFrame.width).toBe(Math.round(inView.width / scale));
    expect(inFrame.height).toBe(Math.round(inView.height / scale));
  });

  it('never reaches outside the frame', () => {
    const box = guideBoxInFrame({ width: 360, height: 800 }, { width: 640, height: 480 });
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(640);
    expect(box.y + box.height).toBeLessThanOrEqual(480);
  });
});
