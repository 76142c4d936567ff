import { describe, expect, it } from 'vitest';
import { cameraProblem } from './camera-problem';

describe('why the camera cannot be used', () => {
  it('tells a refusal how to allow the camera', () => {
    expect(cameraProblem(new DOMException('Permission denied', 'NotAllowedError'))).toMatch(/blocked.*allow the camera.*type the plate/i);
  });
  it('tells a phone without a camera to type', () => {
    expect(cameraProblem(new DOMException('Requested device not found', 'NotFoundError'))).toMatch(/no camera.*Type the plate/);
  });
  it('tells a busy camera what to do', () => {
    expect(cameraProblem(new DOMException('Could not start video source', 'NotReadableError'))).toMatch(/another app/);
  });
  it('has a plain answer for anything else', () => {
    expect(cameraProblem('?')).toMatch(/could not start.*type the plate/i);
  });
});
