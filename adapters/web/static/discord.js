// The Discord Activity's sign-in: the code Discord gives the page, for the bot to exchange.
// Discord Activity: Discord opens the page with ?frame_id=&instance_id=&channel_id=... and speaks
// its Embedded App SDK's RPC over postMessage: we send HANDSHAKE [0, {v, encoding, client_id,
// frame_id}], Discord dispatches READY as a FRAME [1, {cmd: 'DISPATCH', evt: 'READY'}], then our
// AUTHORIZE command is answered by its nonce with {data: {code}}, which the bot exchanges. Only
// messages from the window we speak to (the parent, or its opener in a pop-out) are heard, and
// only from Discord's web origins, its mobile apps' 'null', or our own (Discord's proxy serves
// the frame around ours): the same list as Discord's SDK, fixed here, configured by nothing.
const DISCORD_ORIGIN = /^https:\/\/(ptb\.|canary\.)?discord(app)?\.com$/;
const fromDiscord = (origin) => origin === location.origin || origin === 'null' || DISCORD_ORIGIN.test(origin);
const DISCORD_WAIT = 5000; // ms for READY; the consent that AUTHORIZE may show takes its time
const discordCode = (clientId, frameId) => new Promise((resolve) => {
  const rpc = window.parent.opener || window.parent;
  const nonce = `general-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  let asked = false;
  const done = (code) => {
    clearTimeout(timer);
    window.removeEventListener('message', hear);
    resolve(code);
  };
  const timer = setTimeout(() => { if (!asked) done(null); }, DISCORD_WAIT);
  const hear = (e) => {
    if (e.source !== rpc || !fromDiscord(e.origin) || !Array.isArray(e.data)) return;
    const [op, m] = e.data;
    if (op !== 1 || !m || typeof m !== 'object') return;
    if (m.cmd === 'DISPATCH' && m.evt === 'READY' && !asked) {
      asked = true;
      const args = { client_id: clientId, response_type: 'code', state: '', prompt: 'none', scope: ['identify'] };
      rpc.postMessage([1, { cmd: 'AUTHORIZE', args, nonce }], '*');
    } else if (m.nonce === nonce) {
      done(m.evt !== 'ERROR' && m.data && typeof m.data.code === 'string' ? m.data.code : null);
    }
  };
  window.addEventListener('message', hear);
  rpc.postMessage([0, { v: 1, encoding: 'json', client_id: clientId, frame_id: frameId }], '*');
});
// The identity an Activity's page asks a session with; without a code, the table to watch, or
// an empty code the bot refuses in words ("not set up", "Discord did not confirm who you are").
export const discord = async (query) => {
  const channel = query.get('channel_id') || '';
  const without = query.get('t') ? { table: query.get('t') } : { discord: '', channel };
  let clientId = null;
  try {
    const res = await fetch('api/discord');
    if (res.ok) clientId = (await res.json()).client_id;
  } catch (e) { /* the bot is not reached: the session request says so */ }
  if (typeof clientId !== 'string') return without;
  const code = await discordCode(clientId, query.get('frame_id'));
  return code ? { discord: code, channel, instance: query.get('instance_id') } : without;
};
