// A component whose code is loaded the first time it is drawn (import()), so that the first
// screen does not carry what only some tables or moments need (the page's weight limit).
import { useEffect, useState } from "preact/hooks";
import { html } from "./ui.js";

/** A component drawing `name` of the module `load()` brings, nothing until it has come. */
export function lazyComponent(load, name) {
  let loaded = null; // once here, later draws need no effect
  return function Lazy(props) {
    const [Component, setComponent] = useState(() => loaded);
    useEffect(() => {
      if (Component) return undefined;
      let live = true;
      load().then((module) => {
        loaded = module[name];
        if (live) setComponent(() => loaded);
      });
      return () => { live = false; };
    }, []);
    return Component ? html`<${Component} ...${props} />` : null;
  };
}
