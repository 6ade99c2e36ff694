// A plot of one CSV column against time on a 2D canvas, with a cursor at the slider's
// time; a click or drag on the plot moves the slider there.
export class Plot {
  constructor(container, run, column, onSeek, onRemove) {
    this.run = run;
    this.element = document.createElement('div');
    this.element.className = 'plot';
    const title = document.createElement('div');
    title.className = 'plot-title';
    title.textContent = column;
    const close = document.createElement('button');
    close.textContent = '×';
    close.title = 'remove this plot';
    close.onclick = () => { this.element.remove(); onRemove(this); };
    title.appendChild(close);
    this.canvas = document.createElement('canvas');
    this.canvas.width = 340, this.canvas.height = 130;
    this.element.append(title, this.canvas);
    container.appendChild(this.element);
    this.column = column;
    this.values = run.column(column);
    let lo = Infinity, hi = -Infinity;
    for (const v of this.values) lo = Math.min(lo, v), hi = Math.max(hi, v);
    if (hi - lo < 1e-300) lo -= 1, hi += 1;
    this.lo = lo, this.hi = hi;
    this.t0 = run.times[0], this.t1 = run.times[run.rows - 1] > this.t0 ? run.times[run.rows - 1] : this.t0 + 1;
    this.background = null;
    const seek = (event) => {
      const box = this.canvas.getBoundingClientRect();
      const f = (event.clientX - box.left - 40) / (box.width - 48);
      onSeek(this.t0 + Math.min(1, Math.max(0, f)) * (this.t1 - this.t0));
    };
    this.canvas.addEventListener('mousedown', (e) => { seek(e); this.dragging = true; });
    this.canvas.addEventListener('mousemove', (e) => { if (this.dragging) seek(e); });
    window.addEventListener('mouseup', () => { this.dragging = false; });
  }

  x(t) { return 40 + ((t - this.t0) / (this.t1 - this.t0)) * (this.canvas.width - 48); }
  y(v) { return 8 + (1 - (v - this.lo) / (this.hi - this.lo)) * (this.canvas.height - 26); }

  // The curve, drawn once on an offscreen canvas; draw() copies it and adds the cursor.
  drawCurve() {
    this.background = document.createElement('canvas');
    this.background.width = this.canvas.width, this.background.height = this.canvas.height;
    const g = this.background.getContext('2d');
    const { width, height } = this.canvas;
    g.fillStyle = '#fff';
    g.fillRect(0, 0, width, height);
    g.strokeStyle = '#ccc';
    g.strokeRect(40, 8, width - 48, height - 26);
    g.fillStyle = '#444';
    g.font = '10px sans-serif';
    g.fillText(this.hi.toPrecision(4), 2, 14);
    g.fillText(this.lo.toPrecision(4), 2, height - 18);
    g.fillText(`${this.t0.toFixed(2)} s`, 40, height - 4);
    g.fillText(`${this.t1.toFixed(2)} s`, width - 48, height - 4);
    g.strokeStyle = '#1f77b4';
    g.beginPath();
    const n = this.run.rows, stride = Math.max(1, Math.floor(n / (2 * width)));
    for (let i = 0; i < n; i += stride) {
      // min and max over the stride, so that a spike between samples still shows
      let mn = Infinity, mx = -Infinity;
      for (let k = i; k < Math.min(n, i + stride); k++) mn = Math.min(mn, this.values[k]), mx = Math.max(mx, this.values[k]);
      const px = this.x(this.run.times[i]);
      if (i === 0) g.moveTo(px, this.y(mn));
      g.lineTo(px, this.y(mn));
      g.lineTo(px, this.y(mx));
    }
    g.stroke();
  }

  draw(row) {
    if (!this.background) this.drawCurve();
    const g = this.canvas.getContext('2d');
    g.drawImage(this.background, 0, 0);
    const t = this.run.times[row], v = this.values[row];
    g.strokeStyle = '#d62728';
    g.beginPath();
    g.moveTo(this.x(t), 8);
    g.lineTo(this.x(t), this.canvas.height - 18);
    g.stroke();
    g.fillStyle = '#d62728';
    g.beginPath();
    g.arc(this.x(t), this.y(v), 3, 0, 2 * Math.PI);
    g.fill();
    g.fillText(v.toPrecision(5), Math.min(this.x(t) + 4, this.canvas.width - 60), 20);
  }
}
