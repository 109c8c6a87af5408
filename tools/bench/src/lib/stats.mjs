// Small numeric helpers.

/** @param {number[]} values */
export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** @param {number[]} values */
export function spread(values) {
  const finite = values.filter((v) => Number.isFinite(v));
  const mid = median(finite);
  if (finite.length < 2 || !(mid > 0)) return 0;
  return (Math.max(...finite) - Math.min(...finite)) / mid;
}

/** A figure with thousands separators and a fixed number of decimals. */
export function format(value, decimals = 0) {
  if (!Number.isFinite(value)) return '–';
  return value.toLocaleString('en-GB', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}

/** Bytes as MB (10^6), one decimal. */
export function megabytes(bytes) {
  return format(bytes / 1e6, 1);
}
