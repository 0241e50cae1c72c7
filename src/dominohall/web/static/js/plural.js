// A catalog's Plural-Forms (its `plural=` C expression) as a function, parsed and never eval'd;
// loaded with a catalog only (English needs none).
// Plural-Forms' C expression, parsed (never eval'd): n, integers, ! * / % + - < <= > >= == != && || ?:
const LEVELS = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]];
const APPLY = {
  "||": (a, b) => a || b, "&&": (a, b) => a && b, "==": (a, b) => a == b, "!=": (a, b) => a != b,
  "<": (a, b) => a < b, "<=": (a, b) => a <= b, ">": (a, b) => a > b, ">=": (a, b) => a >= b,
  "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b,
  "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b,
};

/** The plural form's index for a count, from a catalog's Plural-Forms `plural=` expression. */
export function pluralRule(expression, count = 2) {
  const tokens = String(expression).match(/\d+|[<>=!]=|&&|\|\||[n()?:!<>]|[-+*\/%]|\S/g) || [];
  let at = 0;
  const peek = () => tokens[at];
  const take = (token) => {
    if (tokens[at] !== token) throw new SyntaxError(`Plural-Forms: ${token} expected at ${at} in ${expression}`); // i18n: not shown
    at++;
  };
  const primary = () => {
    const token = tokens[at++];
    if (token === "n") return (n) => n;
    if (/^\d+$/.test(token)) return () => Number(token);
    if (token === "!") { const x = primary(); return (n) => +!x(n); }
    if (token === "(") { const x = ternary(); take(")"); return x; }
    throw new SyntaxError(`Plural-Forms: unexpected ${token} in ${expression}`); // i18n: not shown
  };
  const binary = (level) => {
    if (level == LEVELS.length) return primary();
    let left = binary(level + 1);
    while (LEVELS[level].includes(peek())) {
      const op = APPLY[tokens[at++]], a = left, b = binary(level + 1);
      left = (n) => +op(a(n), b(n));
    }
    return left;
  };
  const ternary = () => {
    const test = binary(0);
    if (peek() !== "?") return test;
    at++;
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  };
  const rule = ternary();
  if (at != tokens.length) throw new SyntaxError(`Plural-Forms: ${tokens[at]} left over in ${expression}`); // i18n: not shown
  return (n) => Math.min(Math.max(rule(Math.abs(n)) | 0, 0), count - 1);
}
