export interface RepeatingRound {
  /** Stops the timer and waits for a round under way. */
  stop: () => Promise<void>;
}

/**
 * Runs `round` from a timer of this process: the first right away, each next one `everyMs` after
 * the previous ended, so a round never overlaps itself however long it takes. `round` handles its
 * own errors (a rejected round is still followed by the next).
 */
export function repeatRound(everyMs: number, round: () => Promise<void>): RepeatingRound {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = round()
      .catch(() => undefined)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, everyMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
