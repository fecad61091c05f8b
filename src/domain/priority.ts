/**
 * The spec's priority: 1 is normal, anything above it is high (it needs the organization's
 * high-priority feature, takes the high pre-processing lane and goes first in the detect queue).
 */
export function isHighPriority(priority: number): boolean {
  return priority > 1;
}
