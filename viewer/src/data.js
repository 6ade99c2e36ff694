// Reads window.MECHDYN_DATA (written by `mechdyn view` into data.js): the model as JSON,
// the run's arrays as base64 (little-endian): times and q Float64 (rows, rows × nq),
// values Float32 column-major (columns × rows), poses Float32 (rows × bodies × 7:
// x, y, z, qw, qx, qy, qz; apps/mechdyn/body_poses.hpp), element_forces Float32 (rows ×
// force elements × 3: each element's world force on body a, from the library); with
// `view --mode K` also mode (JSON: number, count, frequency, period, amplitude, unit,
// coordinate, shape, wall_seconds_per_period, …).

function decode(text, Type) {
  if (typeof Uint8Array.fromBase64 === 'function') return new Type(Uint8Array.fromBase64(text).buffer);  // native, fast
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Type(bytes.buffer);
}

export function loadData(raw) {
  const model = raw.model;
  // mode: `view --mode K` (the run is the K-th vibration mode; docs/viewer.md "Mode shapes"), else null
  const data = { model, run: null, assemblyNote: raw.assembly_note || '', mode: raw.mode || null };
  if (raw.run) {
    const r = raw.run;
    const values = decode(r.values, Float32Array);
    const rows = r.rows;
    const columnIndex = new Map(r.columns.map((c, i) => [c, i]));
    data.run = {
      source: r.source,
      rows,
      columns: r.columns,
      times: decode(r.times, Float64Array),
      q: decode(r.q, Float64Array),
      poses: decode(r.poses, Float32Array),
      elementForces: r.element_forces ? decode(r.element_forces, Float32Array) : null,
      column(name) {
        const i = columnIndex.get(name);
        return i === undefined ? null : values.subarray(i * rows, (i + 1) * rows);
      },
    };
  }
  return data;
}

// The last row whose time is ≤ t (0 before the first).
export function rowAt(times, t) {
  let lo = 0, hi = times.length - 1;
  if (t >= times[hi]) return hi;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
