// The staging's speed, one setting for the table and the replay: a duration (ms a step; 0 =
// instant) a name, remembered by the browser; ?speed= overrides it (the tests' 0 or 250).
import { t } from "./i18n.js";
import { el } from "./common.js";

export const SPEEDS = { slow: 900, normal: 450, fast: 180, instant: 0 };
export const SPEED_KEYS = { slow: "speed.slow", normal: "speed.normal", fast: "speed.fast", instant: "speed.instant" };

export function storedSpeedName() {
  const stored = localStorage.getItem("sakuraSpeed");
  return SPEEDS[stored] !== undefined ? stored : "normal";
}

// The duration chosen: the page's ?speed= if given, else the remembered setting's.
export function chosenSpeed(params) {
  return params.has("speed") ? Number(params.get("speed")) : SPEEDS[storedSpeedName()];
}

// The speed picker (id "speed"): `onChange(ms)` hears the new duration; the choice is remembered.
export function speedSelect(onChange) {
  const select = el("select", { id: "speed", "aria-label": t("table.speed") },
    ...Object.keys(SPEEDS).map((k) => el("option", { value: k, selected: k === storedSpeedName() }, t(SPEED_KEYS[k]))));
  select.addEventListener("change", () => {
    localStorage.setItem("sakuraSpeed", select.value);
    onChange(SPEEDS[select.value]);
  });
  return select;
}
