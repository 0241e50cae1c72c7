// The page's words in the reader's language (docs/translating.md). The hall names the language
// in <html lang> and, unless English, preloads its catalog (#catalog); this module waits for it
// (top-level await), so every module importing it may translate at once.
const lang = document.documentElement.lang || "en";
const link = document.getElementById("catalog");
let messages = {};
let plural = (n) => (n == 1 ? 0 : 1); // English, the msgids' own language
if (link) {
  try {
    const [data, { pluralRule }] = await Promise.all([fetch(link.href).then((r) => r.json()), import("./plural.js")]);
    plural = pluralRule(data.plural, data.nplurals);
    messages = data.messages;
  } catch (e) {
    console.error("catalog not loaded, English shown", e);
  }
}
export { lang };
export const languages = []; // [{tag, name}] the hall speaks (GET /api/presets; app.js fills it)

const fill = (text, values) =>
  values ? text.replace(/\{(\w+)\}/g, (m, key) => (key in values ? String(values[key]) : m)) : text;

/** A message in the reader's language; `{name}` filled from `values`. */
export const _ = (id, values) => fill(typeof messages[id] == "string" ? messages[id] : id, values);
/** The same, for a msgid that needs a context to be translated right ("Pass" a button or a move). */
export const pgettext = (context, id, values) => {
  const found = messages[context + "\u0004" + id];
  return fill(typeof found == "string" ? found : id, values);
};
/** A message about a count: the catalog's own plural rule picks the form; `{n}` is the count. */
export function ngettext(one, many, n, values) {
  const forms = messages[one];
  const text = Array.isArray(forms) ? forms[plural(n)] : n == 1 ? one : many;
  return fill(text, { n: number(n), ...values });
}

export const number = (n, options) => new Intl.NumberFormat(lang, options).format(n);
export const date = (d, options) => new Intl.DateTimeFormat(lang, options).format(d);
/** A duration in its largest unit ("3 horas"). */
export function duration(seconds) {
  const [unit, size] = seconds >= 86400 ? ["day", 86400] : seconds >= 3600 ? ["hour", 3600] : seconds >= 60 ? ["minute", 60] : ["second", 1];
  return number(Math.round(seconds / size), { style: "unit", unit, unitDisplay: "long" });
}
