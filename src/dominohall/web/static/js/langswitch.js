// The language switch on every page: the choice kept on the account and in the cookie
// (POST /api/me/language), then the page loaded again in that language.
import { html } from "./ui.js";
import { post } from "./api.js";
import { _, lang, languages } from "./i18n.js";

export function LanguageSwitch() {
  if (languages.length < 2) return null;
  const choose = (e) => post("/api/me/language", { language: e.target.value }).then(() => location.reload(), () => (e.target.value = lang));
  return html`<select class="lang-switch" aria-label=${_("Language")} title=${_("Language")} value=${lang} onChange=${choose}>
    ${languages.map((l) => html`<option key=${l.tag} value=${l.tag} lang=${l.tag}>${l.name}</option>`)}
  </select>`;
}
