/**
 * A progress count to send, thinned out: the first at once, then at most one each `intervalMs`
 * and never while the one before is still on its way (a later count replaces the ones dropped).
 * Progress is only progress: a count that could not be sent fails nothing.
 */
export function throttledProgress(
  send: (count: number) => Promise<unknown>,
  intervalMs: number,
  now: () => number = () => performance.now(),
): (count: number) => void {
  let lastSent = -Infinity;
  let sending = false;
  return (count) => {
    const at = now();
    if (sending || at - lastSent < intervalMs) return;
    lastSent = at;
    sending = true;
    send(count)
      .catch(() => undefined)
      .finally(() => {
        sending = false;
      });
  };
}
