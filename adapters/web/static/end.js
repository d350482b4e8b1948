// The end: its lines, the review and its win-chance chart; and a replay's frames, stepped
// through by hand or played.
import { $, el, svg, colour, page, t } from './common.js';

let shown = null; // how a frame is shown: the entry's show(state, live)

export const ending = (s, players) => {
  const end = s.end && Array.isArray(s.end.lines) ? s.end : null;
  $('end').hidden = !end;
  const lines = $('end-lines');
  lines.textContent = '';
  if (end) end.lines.forEach((line, i) => lines.append(el('p', i ? '' : 'lead', line)));
  const review = s.review || null;
  $('review').hidden = !review;
  $('review-lines').textContent = '';
  if (!review) return;
  for (const line of review.lines || []) $('review-lines').append(el('li', '', line));
  chart(review.chart, players, (end && end.winners) || []);
};

// The win-chance chart: one polyline a player, 0–100 %, as inline SVG.
const chart = (data, players, winners) => {
  const fig = $('chart');
  while (fig.children.length > 1) fig.lastChild.remove();
  const series = data && Array.isArray(data.series) ? data.series : [];
  fig.hidden = !series.length;
  if (!series.length) return;
  const labels = Array.isArray(data.labels) ? data.labels : [];
  const n = Math.max(labels.length, ...series.map((x) => x.length));
  const W = 320; const H = 170; const L = 34; const R = 8; const T = 8; const B = 20;
  const x = (i) => L + (W - L - R) * (n > 1 ? i / (n - 1) : 0.5);
  const y = (v) => T + (H - T - B) * (1 - Math.max(0, Math.min(1, v)));
  const pic = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('chart') });
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    pic.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v % 0.5 ? 'grid minor' : 'grid' }));
    if (v % 0.5 === 0) {
      const label = svg('text', { x: L - 4, y: y(v) + 4, 'text-anchor': 'end' });
      label.textContent = `${v * 100}%`;
      pic.append(label);
    }
  }
  const every = Math.max(1, Math.ceil(n / 8));
  labels.forEach((l, i) => {
    // Every few turns, and the last: not a regular one so close to the last that they touch.
    if (i !== n - 1 && (i % every || n - 1 - i <= every / 2)) return;
    const label = svg('text', { x: x(i), y: H - 5, 'text-anchor': 'middle' });
    label.textContent = String(l);
    pic.append(label);
  });
  series.forEach((points, j) => {
    const line = svg('polyline', {
      points: points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
      stroke: colour(j), class: winners.includes(j) ? 'series win' : 'series',
    });
    line.dataset.testid = `series-${j}`;
    pic.append(line);
  });
  const legend = el('ul', 'legend');
  legend.dataset.testid = 'legend';
  series.forEach((_, j) => {
    const li = legend.appendChild(el('li', winners.includes(j) ? 'win' : ''));
    const dot = li.appendChild(el('i', 'dot'));
    dot.style.background = colour(j);
    li.append(el('span', 'name', players[j] ? players[j].name : String(j + 1)));
  });
  fig.append(pic, legend);
};

// A replay: the frames stepped through by hand or played.
const frame = (i, forward) => {
  if (!page.replay) return;
  page.replay.index = Math.max(0, Math.min(page.replay.frames.length - 1, i));
  $('replay-slider').value = String(page.replay.index);
  $('replay-frame').textContent = `${page.replay.index + 1}/${page.replay.frames.length}`;
  $('replay-frame').title = t('turn', { turn: page.replay.index + 1 });
  shown(page.replay.frames[page.replay.index], forward);
};
export const playLabel = () => {
  const b = $('replay-play');
  const playing = !!(page.replay && page.replay.timer);
  b.dataset.playing = playing ? '1' : '0';
  b.setAttribute('aria-label', t(playing ? 'pause' : 'play'));
};
const pause = () => {
  if (page.replay && page.replay.timer) clearInterval(page.replay.timer);
  if (page.replay) page.replay.timer = 0;
  playLabel();
};
export const stopReplay = () => {
  pause();
  page.replay = null;
  $('replay').hidden = true;
};
const toggle = () => {
  if (!page.replay) return;
  if (page.replay.timer) return pause();
  if (page.replay.index >= page.replay.frames.length - 1) frame(0, false);
  page.replay.timer = setInterval(() => {
    if (page.replay.index >= page.replay.frames.length - 1) pause();
    else frame(page.replay.index + 1, true);
  }, 1100);
  playLabel();
};

// A replay received: its frames, the last one shown first.
export const startReplay = (frames) => {
  stopReplay();
  page.replay = { frames, index: frames.length - 1, timer: 0 };
  const slider = $('replay-slider');
  slider.max = String(frames.length - 1);
  $('replay').hidden = false;
  frame(page.replay.index, false);
};

// The replay's controls, wired once.
export const replayControls = (show) => {
  shown = show;
  $('replay-prev').addEventListener('click', () => { pause(); if (page.replay) frame(page.replay.index - 1, false); });
  $('replay-next').addEventListener('click', () => { pause(); if (page.replay) frame(page.replay.index + 1, true); });
  $('replay-play').addEventListener('click', toggle);
  $('replay-slider').addEventListener('input', (e) => {
    pause();
    if (page.replay) frame(Number(e.target.value), Number(e.target.value) === page.replay.index + 1);
  });
};
