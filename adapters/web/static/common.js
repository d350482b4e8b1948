// What every part of the live table's page shares: the elements' helpers, the seats' colours,
// the bot's words, what the page holds now, and the press sent back.
export const $ = (id) => document.getElementById(id);
const NS = 'http://www.w3.org/2000/svg';
export const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = String(text);
  return e;
};
export const svg = (tag, attrs) => {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
};
const PALETTE = ['#e4572e', '#2e86de', '#27ae60', '#d4a017', '#8e44ad', '#e84393', '#16a2b8', '#7f6a5d'];
export const colour = (seat) => PALETTE[seat] || `hsl(${Math.round(seat * 137.508) % 360} 62% 48%)`;

// What the page holds, shared by its parts.
export const page = {
  texts: null,
  state: null,
  ws: null,
  pressed: null, // the version a press was sent on, until a new state comes
  replay: null, // {frames, index, timer}
};

// Words: every word comes from the bot's texts; `{name}` placeholders are filled here.
export const t = (key, vars) => {
  let s = page.texts && typeof page.texts[key] === 'string' ? page.texts[key] : key;
  for (const k in vars || {}) s = s.split(`{${k}}`).join(String(vars[k]));
  return s;
};

export const unlock = () => {
  page.pressed = null;
  delete document.body.dataset.pending;
};
export const press = (code) => {
  const { state, ws } = page;
  if (!code || !state || page.replay || page.pressed === state.version || !ws || ws.readyState !== 1) return;
  page.pressed = state.version;
  document.body.dataset.pending = '1';
  ws.send(JSON.stringify({ press: code, version: state.version }));
};
