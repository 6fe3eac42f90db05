import { useEffect, useState } from 'react';

/** Whole seconds left until `until` (epoch ms), ticking while above zero; 0 when there is no deadline. */
export function useCountdown(until: number | null): number {
  // The state only makes the component re-render every 250 ms; the time itself is read afresh on each
  // render, since a stored tick may predate a deadline set just now (and show 61 s for a 60 s wait).
  const [, setTick] = useState(0);
  useEffect(() => {
    if (until === null) return;
    const id = setInterval(() => {
      setTick((n) => n + 1);
      if (Date.now() >= until) clearInterval(id);
    }, 250);
    return () => clearInterval(id);
  }, [until]);
  // eslint-disable-next-line react-hooks/purity -- a countdown is a function of the current time
  return until === null ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000));
}
