/** 1,234 */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** $0.0123, or "unpriced" when the model has no price. */
export function money(cost: number | undefined): string {
  if (cost === undefined) return 'unpriced';
  return `$${cost < 1 ? cost.toFixed(4) : cost.toFixed(2)}`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Cuts to `width` characters, with an ellipsis. */
export function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (width <= 0) return '';
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
}

export function pad(text: string, width: number): string {
  return clip(text, width).padEnd(width);
}
