// The language switch on every page: the choice kept on the account and in the cookie
// (POST /api/me/language), then the page loaded again in that language.
// `compact` (the game's top bar, which has no room at 390 px for "Português"): the language's
// short tag shown, and the select laid over it, see-through: it opens the same list of names.
import { html } from "./ui.js";
import { post } from "./api.js";
import { _, lang, languages } from "./i18n.js";

export function LanguageSwitch({ compact = false }) {
  if (languages.length < 2) return null;
  const choose = (e) => post("/api/me/language", { language: e.target.value }).then(() => location.reload(), () => (e.target.value = lang));
  const select = html`<select class="lang-switch" aria-label=${_("Language")} title=${_("Language")} value=${lang} onChange=${choose}>
    ${languages.map((l) => html`<option key=${l.tag} value=${l.tag} lang=${l.tag}>${l.name}</option>`)}
  </select>`;
  if (!compact) return select;
  return html`<span class="lang-compact"><span class="lang-tag" aria-hidden="true">${lang.split("-")[0].toUpperCase()}</span>${select}</span>`;
}
