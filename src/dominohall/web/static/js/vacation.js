// Vacation (docs/protocol.md 7): pause every turn-based clock of yours for some days.
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get, post } from "./api.js";
import { _, date, ngettext, number } from "./i18n.js";

const day = (t) => date(new Date(t * 1000), { weekday: "long", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" });

export function VacationCard() {
  const [status, setStatus] = useState(null);
  const [days, setDays] = useState(3);
  const [error, setError] = useState(null);
  useEffect(() => {
    get("/api/me/vacation").then(setStatus).catch((e) => setError(e.message));
  }, []);
  const act = async (path, body) => {
    setError(null);
    try {
      setStatus(await post(path, body));
    } catch (e) {
      setError(e.message);
    }
  };
  if (!status) return null;
  const left = Math.floor(status.days_left);
  return html`<section class="card vacation" aria-labelledby="vacation-h">
    <h2 id="vacation-h">${_("Vacation")}</h2>
    <p class="note">${_("Pauses the clocks of all your turn-based games; your opponents see that you are away.")}
      ${ngettext("{n} day in any 365 days; {left} left.", "{n} days in any 365 days; {left} left.", status.days_a_year, { left: number(status.days_left) })}</p>
    ${status.on_vacation
      ? html`<p role="status">${_("On vacation until {day}.", { day: day(status.end) })}</p>
          <p><button class="primary" onClick=${() => act("/api/me/vacation/end")}>${_("End my vacation now")}</button></p>`
      : html`<form onSubmit=${(e) => { e.preventDefault(); act("/api/me/vacation", { days }); }}>
          <label for="vacation-days">${_("Days")}</label>
          <input id="vacation-days" type="number" min="1" max=${Math.max(1, left)} value=${days}
            onInput=${(e) => setDays(Number(e.target.value))} />
          <p><button class="primary" type="submit" disabled=${left < 1}>${_("Start a vacation")}</button></p>
        </form>`}
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </section>`;
}
