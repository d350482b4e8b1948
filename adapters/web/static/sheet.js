// The table's parts drawn from a state: the lobby's players, the presses offered, the score
// sheet and the win chances.
import { $, el, colour, page, t, press } from './common.js';

let mover = -1;

export const lobby = (players) => {
  const list = $('lobby-players');
  list.textContent = '';
  players.forEach((p, i) => {
    const li = el('li', p.you ? 'you' : '');
    li.dataset.testid = `lobby-player-${i}`;
    const dot = el('i', 'dot');
    dot.style.background = colour(i);
    li.append(dot, el('span', 'name', p.name));
    if (p.host) li.append(el('span', 'mark', '★'));
    if (p.computer) li.append(el('span', 'mark', '⚙'));
    list.append(li);
  });
};

export const actions = (list) => {
  const box = $('actions');
  box.textContent = '';
  box.hidden = !list.length || !!page.replay;
  for (const a of list) {
    const b = el('button', `btn ${['primary', 'secondary', 'success', 'danger'].includes(a.intent) ? a.intent : 'secondary'}`, a.label);
    b.type = 'button';
    b.dataset.testid = `action-${a.press}`;
    b.disabled = !a.press;
    b.addEventListener('click', () => press(a.press));
    box.append(b);
  }
};

export const sheet = (s, players) => {
  const grid = $('sheet');
  const rows = Array.isArray(s.sheet) ? s.sheet : [];
  $('sheet-wrap').hidden = !rows.length;
  grid.textContent = '';
  grid.dataset.players = players.length > 4 ? 'many' : 'few';
  if (!rows.length) return;
  const cur = s.phase === 'playing' ? players.findIndex((p) => p.current) : -1;
  const winners = (s.end && s.end.winners) || [];
  const head = el('tr');
  head.append(el('th', 'corner', t('box')));
  players.forEach((p, j) => {
    const th = el('th', `player${j === cur ? ' cur' : ''}${p.you ? ' you' : ''}${winners.includes(j) ? ' win' : ''}${p.active === false ? ' gone' : ''}`);
    th.scope = 'col';
    th.title = p.name;
    th.dataset.testid = `player-${j}`;
    th.style.setProperty('--seat', colour(j));
    th.append(el('span', 'name', p.name));
    head.append(th);
  });
  grid.appendChild(el('thead')).append(head);
  const body = grid.appendChild(el('tbody'));
  for (const r of rows) {
    const tr = body.appendChild(el('tr'));
    const th = tr.appendChild(el('th', 'box', r.name));
    th.scope = 'row';
    th.title = r.name;
    players.forEach((p, j) => {
      const v = r.cells ? r.cells[j] : null;
      const td = tr.appendChild(el('td', j === cur ? 'cur' : ''));
      td.dataset.testid = `cell-${r.box}-${j}`;
      if (v != null) td.textContent = String(v);
      else if (j === cur && r.option != null) {
        td.dataset.option = String(r.option);
        if (r.press && !page.replay) {
          const b = td.appendChild(el('button', 'opt', r.option));
          b.type = 'button';
          b.setAttribute('aria-label', `${r.name}: ${r.option}`);
          b.addEventListener('click', () => press(r.press));
        } else td.append(el('span', 'opt', r.option));
      }
    });
  }
  const foot = grid.appendChild(el('tfoot')).appendChild(el('tr'));
  foot.append(el('th', 'box', t('total')));
  players.forEach((p, j) => {
    const td = foot.appendChild(el('td', `${j === cur ? 'cur' : ''}${winners.includes(j) ? ' win' : ''}`));
    td.dataset.testid = `total-${j}`;
    td.textContent = String(s.totals && s.totals[j] != null ? s.totals[j] : p.total);
  });
  if (cur !== mover) {
    mover = cur;
    const th = head.children[cur + 1];
    const wrap = $('sheet-wrap');
    if (th) {
      const box = th.getBoundingClientRect();
      const from = head.children[0].getBoundingClientRect().right;
      const to = wrap.getBoundingClientRect().left + wrap.clientWidth;
      if (box.left < from || box.right > to) wrap.scrollLeft += box.left - from;
    }
  }
};

export const chances = (players) => {
  const shown = players.some((p) => typeof p.chance === 'number');
  const box = $('chances');
  $('chances-box').hidden = !shown;
  if (!shown) return;
  while (box.children.length > players.length) box.lastChild.remove();
  players.forEach((p, j) => {
    let row = box.children[j];
    if (!row) {
      row = box.appendChild(el('div', 'chance'));
      row.dataset.testid = `chance-${j}`;
      const track = el('span', 'track');
      const fill = track.appendChild(el('span', 'fill'));
      fill.style.background = colour(j);
      row.append(el('span', 'name'), track, el('span', 'pct'));
    }
    const c = typeof p.chance === 'number' ? Math.max(0, Math.min(1, p.chance)) : null;
    row.children[0].textContent = p.name;
    row.children[0].title = p.name;
    row.children[1].firstChild.style.width = `${c == null ? 0 : c * 100}%`;
    row.children[2].textContent = c == null ? '–' : `${Math.round(c * 100)}%`;
    row.dataset.value = c == null ? '' : String(c);
    row.classList.toggle('cur', !!p.current);
    row.classList.toggle('gone', p.active === false);
  });
};
