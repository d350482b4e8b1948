// The dice: five buttons made once, their faces drawn as SVG pips, and the throw's tumble.
import { $, el, svg, page, t, press } from './common.js';

const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };
export const reduced = matchMedia('(prefers-reduced-motion: reduce)');
let tumble = null; // {free: Set, end, timer}
export const tumbling = () => !!tumble;

const dieButtons = [];
const face = (i, value) => {
  const b = dieButtons[i];
  const g = b.querySelector('g');
  g.textContent = '';
  for (const p of PIPS[value] || []) g.append(svg('circle', { cx: 22 + (p % 3) * 28, cy: 22 + Math.floor(p / 3) * 28, r: 9 }));
  b.dataset.value = String(value || 0);
};
export const makeDice = () => {
  const box = $('dice');
  for (let i = 0; i < 5; i++) {
    const b = el('button', 'die');
    b.type = 'button';
    b.dataset.testid = `die-${i}`;
    const pic = svg('svg', { viewBox: '0 0 100 100', 'aria-hidden': 'true' });
    pic.append(svg('rect', { x: 3, y: 3, width: 94, height: 94, rx: 18 }), svg('g', {}));
    const lock = svg('svg', { viewBox: '0 0 24 24', class: 'lock', 'aria-hidden': 'true' });
    lock.append(svg('path', { d: 'M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5z' }));
    b.append(pic, lock);
    b.addEventListener('click', () => {
      const d = page.state && page.state.dice && page.state.dice[i];
      if (d) press(d.press);
    });
    dieButtons.push(b);
    box.append(b);
  }
};
export const play = (s, watching) => {
  const dice = Array.isArray(s.dice) ? s.dice : [];
  let hint = false;
  for (let i = 0; i < 5; i++) {
    const b = dieButtons[i];
    const d = dice[i];
    b.classList.toggle('empty', !d);
    b.classList.toggle('held', !!(d && d.held));
    b.dataset.held = d && d.held ? '1' : '0';
    b.disabled = !d || !d.press || !!page.replay;
    if (d && d.press) hint = true;
    if (!tumble || !tumble.free.has(i)) face(i, d ? d.value : 0);
    b.setAttribute('aria-label', d ? t(d.held ? 'die-held' : 'die', { value: d.value }) : '');
    b.toggleAttribute('aria-hidden', !d);
    b.setAttribute('aria-pressed', d && d.held ? 'true' : 'false');
  }
  $('hint').textContent = hint && !page.replay ? t('hold-hint') : '';
  const roll = $('roll');
  roll.hidden = watching || !!page.replay;
  roll.disabled = !s.roll || !s.roll.press;
  roll.textContent = s.roll ? s.roll.label : t('roll');
  roll.onclick = () => press(s.roll && s.roll.press);
};

// The throw: the free dice tumble for a moment and land on the bot's values.
export const roll = (dice) => {
  const free = new Set();
  dice.forEach((d, i) => { if (!d.held) free.add(i); });
  if (!free.size) return;
  if (tumble) clearInterval(tumble.timer);
  tumble = { free, end: Date.now() + 600, timer: setInterval(spin, 70) };
  $('dice').dataset.animating = '1';
  for (const i of free) {
    const b = dieButtons[i];
    b.classList.remove('tumble');
    b.style.setProperty('--spin', `${(Math.random() < 0.5 ? -1 : 1) * (360 + Math.floor(Math.random() * 360))}deg`);
    void b.offsetWidth;
    b.classList.add('tumble');
  }
};
const spin = () => {
  if (!tumble) return;
  if (Date.now() >= tumble.end) return land();
  for (const i of tumble.free) face(i, 1 + Math.floor(Math.random() * 6));
};
export const land = () => {
  if (!tumble) return;
  clearInterval(tumble.timer);
  for (const b of dieButtons) b.classList.remove('tumble');
  tumble = null;
  delete $('dice').dataset.animating;
  if (page.state && page.state.phase === 'playing') play(page.state, page.state.you == null);
};
