/**
 * A growable list of rectangles (x, y, w, h) in one typed array: what a frame collects to fill in
 * one path per colour. Reset each frame, never shrunk, so drawing allocates nothing. Pure.
 */
export class RectList {
  data = new Float32Array(4 * 1024);
  length = 0;

  push(x: number, y: number, w: number, h: number): void {
    if (this.length * 4 + 4 > this.data.length) {
      const bigger = new Float32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    const i = this.length * 4;
    this.data[i] = x;
    this.data[i + 1] = y;
    this.data[i + 2] = w;
    this.data[i + 3] = h;
    this.length++;
  }
}
