/** A small line chart of the last samples (no axes: a glance, the number beside it says the value). */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const width = 120;
  const height = 32;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values.map(
    (value, index) =>
      `${(index * step).toFixed(1)},${(height - (value / max) * (height - 4) - 2).toFixed(1)}`,
  );
  return (
    <svg
      className="spark"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label={label}
    >
      <title>{label}</title>
      <line className="baseline" x1="0" x2={width} y1={height - 1} y2={height - 1} />
      {points.length > 1 ? <polyline points={points.join(' ')} fill="none" strokeWidth="2" /> : null}
    </svg>
  );
}
