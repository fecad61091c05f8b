/**
 * A number a benchmark reads from the environment: `fallback` when the variable is unset or empty;
 * anything else must be a positive number (or zero, with `allowZero`), or the run stops.
 */
export function envNumber(name: string, fallback: number, { allowZero = false } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero)) {
    throw new Error(`${name} must be a number ${allowZero ? '>= 0' : '> 0'}, got ${raw}`);
  }
  return value;
}
