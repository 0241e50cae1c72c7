// Opening a table's link without a name: pick one (as a guest) before sitting down.
import { useState } from "preact/hooks";
import { html } from "./ui.js";
import { post } from "./api.js";

export function NamePrompt({ me, onDone, goHome }) {
  const [name, setName] = useState(me ? me.name : "");
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      const { player } = await post("/api/guest", { name: name.trim() });
      onDone(player);
    } catch (err) {
      setError(err.message);
    }
  };
  return html`<main class="lobby"><div class="card">
    <h1 style="margin-top:0">Join the table</h1>
    <form onSubmit=${submit}>
      <label for="nick">Your nickname</label>
      <input id="nick" maxlength="20" autocomplete="nickname" value=${name} onInput=${(e) => setName(e.target.value)} />
      <div class="row" style="margin-top:10px">
        <button class="primary" type="submit">Continue</button>
        <button type="button" onClick=${goHome}>Back to the hall</button>
      </div>
    </form>
    ${error && html`<p class="error" role="alert">${error}</p>`}
  </div></main>`;
}
