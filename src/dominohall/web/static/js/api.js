// The hall's HTTP API (docs/protocol.md sections 1 and 2): JSON in, JSON out, errors as exceptions.
// (The hall words its errors in the reader's language; the page words only its own.)
import { _, date } from "./i18n.js";

export class HallError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new HallError("offline", _("The hall cannot be reached. Check your connection."), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    let words = error.message || _("The hall answered {status}.", { status: response.status });
    // held_back says when the hold ends: in the reader's own clock.
    if (typeof error.until === "number") words += " " + _("(until {time})", { time: date(new Date(error.until * 1000), { timeStyle: "medium" }) });
    throw new HallError(error.code || "http_" + response.status, words, response.status);
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body = {}) => api("POST", path, body);
