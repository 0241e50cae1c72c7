// Email notices (docs/protocol.md 9): the player's address, confirmed by a link, and the choice to
// get "your turn" emails; and what the links in those emails did (/my-games?email=...).
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";
import { get, post } from "./api.js";
import { _, ngettext } from "./i18n.js";

const OUTCOMES = {
  confirmed: () => _("Your address is confirmed: notices will come to it."),
  unsubscribed: () => _("You will get no more notice emails. You can turn them on again below."),
  expired: () => _("That link is more than a week old: ask for a new one below."),
  stale: () => _("That link was for an address you have changed since."),
  "bad-link": () => _("That link is not one of this hall's."),
};

/** What the link in an email did, said once at the top of the page it leads to. */
export function EmailOutcome() {
  const outcome = new URLSearchParams(location.search).get("email");
  const text = outcome && OUTCOMES[outcome] && OUTCOMES[outcome]();
  if (!text) return null;
  const bad = ["expired", "stale", "bad-link"].includes(outcome);
  return html`<p class=${"card email-outcome" + (bad ? " error" : "")} role="status">${text}</p>`;
}

function status(email) {
  if (!email.address) return _("No address: no email.");
  if (!email.confirmed) return _("A link went to {address}: open it to confirm the address.", { address: email.address });
  if (!email.notify) return _("No notices go to {address}.", { address: email.address });
  return _("Notices go to {address}.", { address: email.address });
}

/** The player's email settings; shown only when the hall sends email. */
export function EmailSettings({ me }) {
  const [email, setEmail] = useState(null);
  const [address, setAddress] = useState("");
  const [notify, setNotify] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);

  const show = (e) => {
    setEmail(e);
    setAddress(e.address || "");
    setNotify(e.address ? e.notify : true);
  };
  useEffect(() => {
    get("/api/me/email")
      .then(({ email }) => show(email))
      .catch((e) => setError(e.message));
  }, [me.id]);

  if (error && !email) return html`<p class="error" role="alert">${error}</p>`;
  if (!email || !email.available) return null;
  const send = async (body) => {
    setBusy(true);
    setError(null);
    try {
      show((await post("/api/me/email", body)).email);
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  const every = email.every_minutes;
  return html`<form class="email-settings" onSubmit=${(e) => {
    e.preventDefault();
    send({ address, notify });
  }}>
    <label for="email-address">${_("Email me when it is my turn")}</label>
    <input id="email-address" type="email" autocomplete="email" maxlength="254" required
      placeholder=${_("you@example.org")} value=${address} onInput=${(e) => setAddress(e.target.value)} />
    <label class="check"><input id="email-notify" type="checkbox" checked=${notify}
      onChange=${(e) => setNotify(e.target.checked)} /> ${every >= 60 && every % 60 === 0
        ? ngettext("Send me notices (at most one email every hour)", "Send me notices (at most one email every {n} hours)", every / 60)
        : ngettext("Send me notices (at most one email every minute)", "Send me notices (at most one email every {n} minutes)", every)}</label>
    <div class="row">
      <button class="primary" type="submit" disabled=${busy}>${_("Save")}</button>
      ${email.address && !email.confirmed &&
      html`<button type="button" disabled=${busy} onClick=${() => send({ address: email.address })}>${_("Send the link again")}</button>`}
      ${email.address &&
      html`<button type="button" disabled=${busy} onClick=${() => send({ address: null })}>${_("Forget my address")}</button>`}
    </div>
    <p class="note email-status" role="status">${status(email)}</p>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </form>`;
}
