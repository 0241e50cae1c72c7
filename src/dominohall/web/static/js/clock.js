// Counting down on the player's own clock from "seconds left" as the hall sent them.
import { useEffect, useState } from "preact/hooks";

/** Seconds left until `left` seconds after `receivedAt` (ms, performance.now()), ticking. */
export function useCountdown(left, receivedAt) {
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    if (left === null || left === undefined) return undefined;
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, [left, receivedAt]);
  if (left === null || left === undefined) return null;
  return Math.max(0, left - (now - receivedAt) / 1000);
}

export function formatSeconds(s) {
  return s >= 10 ? String(Math.ceil(s)) : (Math.ceil(s * 10) / 10).toFixed(1);
}

/** "2 d 5 h", "5 h 12 min", "12 min", "40 s": a clock's time left. */
export function daysHours(seconds) {
  const [MINUTE, HOUR, DAY] = [60, 3600, 86400];
  const s = Math.max(0, Math.floor(seconds));
  if (s >= DAY) return `${Math.floor(s / DAY)} d ${Math.floor((s % DAY) / HOUR)} h`;
  if (s >= HOUR) return `${Math.floor(s / HOUR)} h ${Math.floor((s % HOUR) / MINUTE)} min`;
  if (s >= MINUTE) return `${Math.floor(s / MINUTE)} min`;
  return `${s} s`;
}
