/**
 * The value of `p`, or `late` when `p` has not settled within `ms`. The timer is cleared once the race
 * settles and never keeps the process alive on its own. A rejection of `p` within the time passes on.
 */
export function within<T, L>(p: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<L>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
