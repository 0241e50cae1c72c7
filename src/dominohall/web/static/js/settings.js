// Account settings (/settings): the name shown at tables, the password, a file of all one's
// data, and deleting the account (its games stay under an anonymous name).
import { useState } from "preact/hooks";
import { html } from "./ui.js";
import { post } from "./api.js";
import { Frame } from "./pages.js";
import { VacationCard } from "./vacation.js";
import { NameLength } from "./nameprompt.js";
import { offered } from "./choices.js";
import { _ } from "./i18n.js";
import { _html, strong } from "./markup.js";

function Form({ title, id, children, onSubmit, done, error }) {
  return html`<section class="card" aria-labelledby=${id}>
    <h2 id=${id}>${title}</h2>
    <form onSubmit=${(e) => { e.preventDefault(); onSubmit(); }}>
      ${children}
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${done && html`<p class="ok-note" role="status">${done}</p>`}
    </form>
  </section>`;
}

function useAction() {
  const [error, setError] = useState(null);
  const [done, setDone] = useState(null);
  const run = async (fn, words) => {
    setError(null);
    setDone(null);
    try {
      const answer = await fn();
      setDone(words);
      return answer;
    } catch (e) {
      setError(e.message);
      return null;
    }
  };
  return { error, done, run };
}

export function SettingsPage({ me, setMe, go }) {
  const [name, setName] = useState(me ? me.name : "");
  const [password, setPassword] = useState("");
  const [fresh, setFresh] = useState("");
  const [confirm, setConfirm] = useState("");
  const renaming = useAction();
  const changing = useAction();
  const deleting = useAction();
  if (!me) {
    const home = html`<a href="/">${_("home page")}</a>`;
    return html`<${Frame} title=${_("Settings")} go=${go} me=${me}>
      <h1>${_("Settings")}</h1><p>${_html("Sign in on the {home} first.", { home })}</p>
    </${Frame}>`;
  }
  const rename = async () => {
    const answer = await renaming.run(() => post("/api/guest", { name: name.trim() }), _("Your name is changed."));
    if (answer) setMe(answer.player);
  };
  const change = async () => {
    const answer = await changing.run(
      () => post("/api/password", { password, new_password: fresh }),
      _("Your password is changed; other browsers are signed out."),
    );
    if (answer) { setPassword(""); setFresh(""); }
  };
  const remove = async () => {
    if (!window.confirm(_("Delete your account for good? Your games stay, under the name “Deleted player”."))) return;
    const answer = await deleting.run(() => post("/api/me/delete", me.guest ? {} : { password: confirm }), _("Deleted."));
    if (answer) { setMe(null); go("/"); }
  };
  return html`<${Frame} title=${_("Settings")} go=${go} me=${me}>
    <h1>${_("Settings")}</h1>
    <p class="note">${me.guest
      ? _html("Signed in as {name} (guest).", { name: strong(me.name) })
      : _html("Signed in as {name} (@{username}).", { name: strong(me.name), username: me.username })}</p>
    <div class="cards">
      <${Form} title=${_("Your name")} id="name-h" onSubmit=${rename} done=${renaming.done} error=${renaming.error}>
        <label for="set-name">${_("Name shown at tables")}</label>
        <input id="set-name" value=${name} autocomplete="nickname" onInput=${(e) => setName(e.target.value)} />
        <${NameLength} name=${name} id="set-name-length" />
        <p><button class="primary" type="submit">${_("Change name")}</button></p>
      </${Form}>
      ${!me.guest && html`<${Form} title=${_("Password")} id="password-h" onSubmit=${change} done=${changing.done} error=${changing.error}>
        <label for="set-old">${_("Password now")}</label>
        <input id="set-old" type="password" value=${password} autocomplete="current-password" onInput=${(e) => setPassword(e.target.value)} />
        <label for="set-new">${_("New password ({count} characters or more)", { count: offered.lengths.password[0] })}</label>
        <input id="set-new" type="password" value=${fresh} autocomplete="new-password" onInput=${(e) => setFresh(e.target.value)} />
        <p><button class="primary" type="submit">${_("Change password")}</button></p>
      </${Form}>`}
      <${VacationCard} />
      <section class="card" aria-labelledby="export-h">
        <h2 id="export-h">${_("Your data")}</h2>
        <p class="note">${_("One JSON file: your profile, ratings, statistics, and every game you played with its record.")}</p>
        <p><a class="button-link" href="/api/me/export" download>${_("Download your data")}</a></p>
      </section>
      <${Form} title=${_("Delete your account")} id="delete-h" onSubmit=${remove} done=${deleting.done} error=${deleting.error}>
        <p class="note">${me.guest
          ? _("Your name goes for good; your games stay, under the name “Deleted player”. Leave your unfinished tables first.")
          : _("Your name, username, password and ratings go for good; your games stay, under the name “Deleted player”. Leave your unfinished tables first.")}</p>
        ${!me.guest && html`<label for="set-confirm">${_("Your password, to confirm")}</label>
          <input id="set-confirm" type="password" value=${confirm} autocomplete="current-password" onInput=${(e) => setConfirm(e.target.value)} />`}
        <p><button class="danger" type="submit">${_("Delete my account")}</button></p>
      </${Form}>
    </div>
  </${Frame}>`;
}
