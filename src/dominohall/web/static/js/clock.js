// Counting down on the player's own clock from "seconds left" as the hall sent them.
import { useEffect, useState } from "preact/hooks";
import { _, number } from "./i18n.js";

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
  return s >= 10 ? number(Math.ceil(s)) : number(Math.ceil(s * 10) / 10, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** "2 d 5 h", "5 h 12 min", "12 min", "40 s": a clock's time left. */
export function daysHours(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= DAY) return _("{d} d {h} h", { d: number(Math.floor(s / DAY)), h: Math.floor((s % DAY) / HOUR) });
  if (s >= HOUR) return _("{h} h {m} min", { h: number(Math.floor(s / HOUR)), m: Math.floor((s % HOUR) / MINUTE) });
  if (s >= MINUTE) return _("{m} min", { m: Math.floor(s / MINUTE) });
  return _("{s} s", { s });
}
