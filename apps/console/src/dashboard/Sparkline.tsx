/** A tiny line of values in SVG: the overview card's trend, without loading a chart library. */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const width = 120;
  const height = 36;
  if (values.length < 2) return null;
  const max = Math.max(...values, 1);
  const step = width / (values.length - 1);
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`).join(' ');
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} data-testid="online-sparkline">
      <polygon points={`0,${height} ${points} ${width},${height}`} fill="rgb(var(--primary-6))" fillOpacity={0.12} />
      <polyline points={points} fill="none" stroke="rgb(var(--primary-6))" strokeWidth={1.5} strokeLinejoin="round" />
    </svg>
  );
}
