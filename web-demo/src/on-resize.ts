// Canvases and layouts measured in pixels redraw when the window resizes: at
// most once per animation frame, however many resize events a drag fires.

export function onResize(redraw: () => void): void {
  let pending = false;
  addEventListener('resize', () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      redraw();
    });
  });
}
