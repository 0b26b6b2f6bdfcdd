// The card table of `ddz play --serve`: draws the state one seat may see and sends that
// seat's moves over the websocket (the protocol is in ddz_rules/play/web/server.py).
"use strict";

const RANKS = "3456789TJQKA2BR";
const NAMES = {T: "10", B: "small joker", R: "big joker"};
const SHORT = {T: "10", B: "sJ", R: "BJ"};
const PLACES = {
  1: ["bottom"],
  2: ["bottom", "top"],
  3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"],
};

const query = new URLSearchParams(window.location.search);
const pathParts = window.location.pathname.split("/").filter(Boolean);
const gameId = decodeURIComponent(pathParts.pop() || "");
// a replay page (/replay/ID) draws a record's frames with this same drawing, no socket
const replayId = pathParts[0] === "replay" ? gameId : null;
const mySeat = query.has("seat") ? Number(query.get("seat")) : null;
const myToken = query.get("token");

let state = null;
let socket = null;
let retries = 0;
let closedForGood = false;
let lastRefusal = "";       // the last refusal's reason: why a socket closed for good
let handKey = "";
let selected = new Set();   // indices into state.hand
let hinted = null;          // {cards: "33", reading: "..." | null, word: "pass" | null}

const $ = (id) => document.getElementById(id);

/** The name of a rank character: "10", "small joker", "big joker", "3". */
function cardName(ch) {
  return NAMES[ch] || ch;
}

/** The rank characters of a card text ("1010JQ", "TTJQ", "B R"), unknown marks left out. */
function ranksOf(text) {
  const out = [];
  const tokens = String(text || "").toUpperCase().match(/10|[0-9A-Z]/g) || [];
  for (const token of tokens) {
    const ch = token === "10" ? "T" : token;
    if (RANKS.includes(ch)) out.push(ch);
  }
  return out;
}

/** A card face: a <button> for a card of your hand, else a labelled image-like span. */
function cardFace(ch, asButton) {
  const card = document.createElement(asButton ? "button" : "span");
  card.className = "card";
  if (ch === "B" || ch === "R") {
    card.classList.add("joker", ch === "B" ? "joker-small" : "joker-big");
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = ch === "B" ? "small" : "BIG";
    const word = document.createElement("span");
    word.className = "word";
    word.textContent = "joker";
    card.append(rank, word);
  } else {
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = cardName(ch);
    card.appendChild(rank);
    if (ch === "T") card.classList.add("ten");
  }
  card.dataset.rank = ch;
  if (asButton) {
    card.type = "button";
    card.setAttribute("aria-label", cardName(ch));
  } else {
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", cardName(ch));
  }
  return card;
}

function cardRow(chars, small) {
  const row = document.createElement("span");
  row.className = "cards" + (small ? " small" : "");
  for (const ch of chars) row.appendChild(cardFace(ch, false));
  return row;
}

function whoText(seat) {
  if (seat.who === "you") return "you";
  if (seat.who === "person") return "a person";
  if (seat.who === "player") return "player";  // a replay of a record that names nobody
  return "bot: " + seat.who;
}

// ---------------------------------------------------------------- drawing

function render() {
  if (!state) return;
  const s = state;
  const title = (s.ruleset && (s.ruleset.title || s.ruleset.id)) || "ddz play";
  const who = s.seat === null || s.seat === undefined ? "watching" : "seat " + s.seat;
  $("title").textContent = title + " — " + who;
  document.title = "ddz play: " + title + " (" + who + ")";
  $("multiplier").textContent = "×" + s.multiplier;
  const wild = s.wild || [];
  $("wild-line").textContent = wild.length ? "· wild: " + wild.map(cardName).join(", ") : "";
  // the stake line begins with the multiplier drawn just before it
  $("stake-line").textContent = (s.stake_line || "").replace(/^multiplier x\d+;?\s*/, "");

  renderSeats(s);
  renderTrick(s);
  renderHand(s);
  renderControls(s);
  renderAids(s);
  renderResult(s);
  renderLog(s);
}

function renderSeats(s) {
  const box = $("seats");
  box.replaceChildren();
  const n = s.seats.length;
  const base = s.seat === null || s.seat === undefined ? 0 : s.seat;
  const places = PLACES[n] || [];
  const revealed = s.open || (s.result && s.result.hands ? s.result.hands : null);
  box.className = "seats seats-" + n;
  for (let k = 0; k < n; k++) {
    const index = (base + k) % n;
    const seat = s.seats[index];
    const el = document.createElement("section");
    el.className = "seat place-" + (places[k] || "extra");
    if (seat.to_act) el.classList.add("to-act");
    if (seat.role) el.classList.add("role-" + seat.role);
    el.setAttribute("aria-label", "seat " + seat.seat);
    el.dataset.seat = String(seat.seat);

    const head = document.createElement("h2");
    head.textContent = "Seat " + seat.seat + " · " + whoText(seat);
    el.appendChild(head);

    const facts = document.createElement("p");
    facts.className = "facts";
    const role = document.createElement("span");
    role.className = "role";
    role.textContent = seat.role || "—";
    const left = document.createElement("span");
    left.className = "left";
    left.textContent = seat.cards_left + (seat.cards_left === 1 ? " card" : " cards");
    facts.append(role, " · ", left);
    if (seat.to_act) {
      const turn = document.createElement("span");
      turn.className = "turn";
      turn.textContent = s.phase === "play" ? "to play" : "to act";
      facts.append(" · ", turn);
    }
    el.appendChild(facts);

    if (revealed && revealed[seat.seat] !== undefined) {
      const hand = document.createElement("div");
      hand.className = "revealed";
      const cap = document.createElement("span");
      cap.className = "caption";
      cap.textContent = s.result ? "cards left:" : "cards:";
      const chars = ranksOf(revealed[seat.seat]);
      hand.append(cap, " ", chars.length ? cardRow(chars, true) : document.createTextNode("none"));
      el.appendChild(hand);
    } else if (seat.seat !== s.seat) {
      const backs = document.createElement("span");
      backs.className = "backs";
      backs.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(seat.cards_left, 20); i++) {
        const back = document.createElement("span");
        back.className = "back";
        backs.appendChild(back);
      }
      el.appendChild(backs);
    }

    const last = document.createElement("p");
    last.className = "last";
    if (seat.last === null || seat.last === undefined) {
      last.textContent = "last: —";
    } else if (ranksOf(seat.last).length === 0 || /^[a-z]/.test(seat.last)) {
      last.textContent = "last: " + seat.last;
    } else {
      last.append("last: ", cardRow(ranksOf(seat.last), true));
      if (seat.last_said) {
        const said = document.createElement("span");
        said.className = "said";
        said.textContent = " " + seat.last_said;
        last.appendChild(said);
      }
    }
    el.appendChild(last);
    box.appendChild(el);
  }
}

/** A trick's plays as figures: each seat's last action in it, cards and words. */
function trickFigures(box, entries, s) {
  box.replaceChildren();
  for (const entry of entries) {
    const play = document.createElement("figure");
    play.className = "play";
    play.dataset.seat = String(entry.seat);
    const cap = document.createElement("figcaption");
    cap.textContent = "seat " + entry.seat + (entry.seat === s.seat ? " (you)" : "");
    play.appendChild(cap);
    if (entry.cards === null || entry.cards === undefined) {
      const pass = document.createElement("span");
      pass.className = "pass";
      pass.textContent = "pass";
      play.appendChild(pass);
      play.setAttribute("aria-label", "seat " + entry.seat + ": pass");
    } else {
      play.appendChild(cardRow(ranksOf(entry.cards), false));
      if (entry.said) {
        const said = document.createElement("figcaption");
        said.className = "said";
        said.textContent = entry.said;
        play.appendChild(said);
      }
      play.setAttribute("aria-label", "seat " + entry.seat + ": " + ranksOf(entry.cards).map(cardName).join(" "));
    }
    box.appendChild(play);
  }
}

/** Who won a finished trick: the last seat in it that did not pass. */
function trickWinner(entries) {
  const plays = entries.filter((e) => e.cards !== null && e.cards !== undefined);
  return plays.length ? plays[plays.length - 1].seat : null;
}

let countdown = null;   // the turn timer's ticking, while one runs

/** The turn timer, counted down on the page from the seconds the server said were left. */
function renderTimer(s) {
  if (countdown) clearInterval(countdown);
  countdown = null;
  const line = $("timer-line");
  if (s.timer_left === null || s.timer_left === undefined) {
    line.textContent = s.timer ? "turn timer: " + s.timer + " s a turn" : "";
    return;
  }
  const until = Date.now() + 1000 * s.timer_left;
  const who = s.phase === "settled" ? "to see the result" : s.your_turn ? "for your turn"
    : "for seat " + s.to_act;
  const then = s.phase === "settled" ? "the next hand is dealt" : "the standard bot plays on";
  const tick = () => {
    const left = Math.max(0, Math.round((until - Date.now()) / 1000));
    line.textContent = left + " s left " + who + "; then " + then;
  };
  tick();
  countdown = setInterval(tick, 1000);
}

function renderTrick(s) {
  $("status").textContent = (s.aids && s.aids.status) || "";
  const notices = s.notices || [];
  $("notice").textContent = notices.length ? notices[notices.length - 1] : "";
  renderTimer(s);
  const trick = $("trick");
  const current = s.trick || [];
  const before = s.last_trick || [];
  // a trick just won stays in the middle, marked as the last one, until the next play
  const showing = current.length ? current : before;
  trickFigures(trick, showing, s);
  trick.classList.toggle("finished", !current.length && before.length > 0);
  if (!current.length) {
    const empty = document.createElement("p");
    empty.className = "empty";
    const won = trickWinner(before);
    empty.textContent = s.phase !== "play" ? "" : before.length && won !== null
      ? "last trick, won by seat " + won + (won === s.seat ? " (you)" : "") + "; a new trick"
      : "a new trick";
    trick.prepend(empty);
  }
  const lastBox = $("last-trick-box");
  lastBox.hidden = !before.length;
  trickFigures($("last-trick"), before, s);
  const kitty = $("kitty-box");
  if (s.kitty) {
    kitty.hidden = false;
    $("kitty").replaceChildren(cardRow(ranksOf(s.kitty), true));
  } else {
    kitty.hidden = true;
  }
}

function renderHand(s) {
  const you = $("you");
  you.hidden = s.seat === null || s.seat === undefined;
  const hand = s.hand || [];
  const key = hand.join("");
  if (key !== handKey) {
    selected = new Set();
    handKey = key;
  }
  const box = $("hand");
  box.replaceChildren();
  const wild = s.wild || [];
  hand.forEach((ch, i) => {
    const card = cardFace(ch, true);
    card.dataset.index = String(i);
    if (wild.includes(ch)) {  // a wild card: marked, and said so to a screen reader
      card.classList.add("wild");
      card.title = "wild: stands for any card";
      card.setAttribute("aria-label", cardName(ch) + " (wild)");
    }
    card.setAttribute("aria-pressed", selected.has(i) ? "true" : "false");
    card.addEventListener("click", () => toggle(i));
    box.appendChild(card);
  });
}

function toggle(i) {
  if (selected.has(i)) selected.delete(i);
  else selected.add(i);
  const card = $("hand").querySelector('[data-index="' + i + '"]');
  if (card) card.setAttribute("aria-pressed", selected.has(i) ? "true" : "false");
  $("play").disabled = !(state && state.can_play) || selected.size === 0;
}

function renderControls(s) {
  $("play").disabled = !s.can_play || selected.size === 0;
  $("hint").disabled = !s.your_turn;
  const words = $("words");
  words.replaceChildren();
  const labels = s.word_labels || [];
  (s.words || []).forEach((word, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "word";
    button.textContent = labels[i] || word;
    button.dataset.word = word;
    if (hinted && hinted.word === word) button.classList.add("hinted");
    button.addEventListener("click", () => send({type: "act", action: word}, true));
    words.appendChild(button);
  });
  $("next").hidden = !s.can_next;
  if (!s.your_turn) {
    $("hint-line").textContent = "";
    hinted = null;
  }
}

function renderAids(s) {
  const aids = s.aids || {};
  const adv = $("advantage-box");
  if (aids.advantage) {
    adv.hidden = false;
    $("advantage").textContent = aids.advantage;
  } else {
    adv.hidden = true;
  }
  const ranks = $("unseen-ranks");
  const counts = $("unseen-counts");
  ranks.replaceChildren();
  counts.replaceChildren();
  const unseen = aids.unseen || {};
  for (const ch of RANKS) {
    if (!(ch in unseen)) continue;
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = SHORT[ch] || ch;
    th.title = cardName(ch);
    th.setAttribute("aria-label", cardName(ch));
    ranks.appendChild(th);
    const td = document.createElement("td");
    td.textContent = String(unseen[ch]);
    if (!unseen[ch]) td.className = "gone";
    counts.appendChild(td);
  }
}

function renderResult(s) {
  const box = $("result-box");
  if (s.result) {
    box.hidden = false;
    const lines = $("result-lines");
    lines.replaceChildren();
    for (const line of s.result.lines || []) {
      const li = document.createElement("li");
      li.textContent = line;
      lines.appendChild(li);
    }
    const banner = $("scores");
    banner.textContent = s.result.banner || "";
    banner.className = /^You won/.test(banner.textContent) ? "won"
      : /^You lost/.test(banner.textContent) ? "lost" : "";
  } else {
    box.hidden = true;
  }
  const match = $("match-box");
  if (s.match) {
    match.hidden = false;
    const totals = (s.match.totals || []).map((v, i) => "seat " + i + " " + (v > 0 ? "+" : "") + v).join(", ");
    $("match-line").textContent = "hand " + s.match.hand + " of " + s.match.of +
      (s.match.over ? " — the match is over" : "") + "; totals: " + totals;
  } else {
    match.hidden = true;
  }
}

function renderLog(s) {
  for (const [id, lines] of [["log", s.log], ["details", s.details]]) {
    const log = $(id);
    log.replaceChildren();
    for (const line of lines || []) {
      const li = document.createElement("li");
      li.textContent = line;
      log.appendChild(li);
    }
    log.scrollTop = log.scrollHeight;
  }
}

// ---------------------------------------------------------------- messages

function onHint(message) {
  const action = String(message.action || "");
  $("hint-line").textContent = "Hint: " + (message.text || action);
  hinted = {cards: "", reading: null, word: null};
  const words = (state && state.words) || [];
  if (words.includes(action) || /^[a-z]/.test(action)) {
    hinted.word = action;
    for (const button of $("words").querySelectorAll("button")) {
      button.classList.toggle("hinted", button.dataset.word === action);
    }
    return;
  }
  const [cards, reading] = action.split("@");
  hinted.reading = reading ? action.slice(cards.length + 1) : null;
  const want = ranksOf(cards);
  hinted.cards = want.join("");
  selected = new Set();
  const hand = (state && state.hand) || [];
  for (const ch of want) {
    const i = hand.findIndex((c, j) => c === ch && !selected.has(j));
    if (i >= 0) selected.add(i);
  }
  for (const card of $("hand").querySelectorAll("button")) {
    card.setAttribute("aria-pressed", selected.has(Number(card.dataset.index)) ? "true" : "false");
  }
  $("play").disabled = !(state && state.can_play) || selected.size === 0;
}

function onReadings(message) {
  const box = $("readings");
  const options = $("reading-options");
  options.replaceChildren();
  for (const option of message.options || []) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = option.text || option.notation;
    button.title = option.notation;
    button.addEventListener("click", () => {
      box.hidden = true;
      send({type: "act", play: message.cards, reading: option.notation}, true);
    });
    options.appendChild(button);
  }
  box.hidden = false;
}

function onMessage(event) {
  let message;
  try {
    message = JSON.parse(event.data);
  } catch (e) {
    return;
  }
  if (message.type === "state") {
    state = message.state;
    document.body.dataset.states = String(Number(document.body.dataset.states || 0) + 1);
    $("readings").hidden = true;
    render();
  } else if (message.type === "refused") {
    $("refusal").textContent = message.reason || "refused";
    lastRefusal = message.reason || "";
  } else if (message.type === "readings") {
    onReadings(message);
  } else if (message.type === "hint") {
    onHint(message);
  }
}

/** The table will not take this page's moves (a forged token, a game that is gone): every
 * control is switched off and the reason stays on the page; no reconnecting. */
function shutOut(why) {
  closedForGood = true;
  $("connection").textContent = why;
  $("refusal").textContent = why;
  for (const id of ["play", "hint", "typed-play"]) $(id).disabled = true;
  for (const button of document.querySelectorAll("#words button, #typed button")) {
    button.disabled = true;
  }
}

function send(message, clearRefusal) {
  if (closedForGood) return;
  if (clearRefusal) $("refusal").textContent = "";
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    $("refusal").textContent = "Not connected to the table; trying again…";
    return;
  }
  socket.send(JSON.stringify(message));
}

function playSelected() {
  if (!state || selected.size === 0) return;
  const chars = Array.from(selected).sort((a, b) => a - b).map((i) => state.hand[i]).join("");
  const message = {type: "act", play: chars};
  if (hinted && hinted.reading && hinted.cards === chars) message.reading = hinted.reading;
  send(message, true);
}

function playTyped(event) {
  event.preventDefault();
  const input = $("typed-play");
  const text = input.value.trim();
  if (!text) return;
  const words = (state && state.words) || [];
  const word = words.find((w) => w.toLowerCase() === text.toLowerCase());
  if (word || text.toLowerCase() === "pass") {
    send({type: "act", action: word || "pass"}, true);
  } else if (text.includes("@")) {
    const at = text.indexOf("@");
    send({type: "act", play: text.slice(0, at), reading: text.slice(at + 1)}, true);
  } else {
    send({type: "act", play: text}, true);
  }
  input.value = "";
}

// ---------------------------------------------------------------- connection

function socketUrl() {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  let url = scheme + "//" + window.location.host + "/ws/" + encodeURIComponent(gameId);
  if (mySeat !== null) url += "?seat=" + mySeat + "&token=" + encodeURIComponent(myToken || "");
  return url;
}

function connect() {
  socket = new WebSocket(socketUrl());
  socket.addEventListener("open", () => {
    retries = 0;
    $("connection").textContent = "connected";
    $("connection").className = "up";
  });
  socket.addEventListener("message", onMessage);
  socket.addEventListener("close", (event) => {
    $("connection").className = "down";
    if (event.code === 4403 || event.code === 4404) {
      const why = lastRefusal || event.reason || "this link is not valid for this game";
      shutOut(why.startsWith("this table has ended") ? why : "not let in: " + why);
      return;
    }
    if (closedForGood) return;
    const wait = Math.min(5000, 300 * 2 ** retries);
    retries += 1;
    $("connection").textContent = "connection lost; reconnecting…";
    setTimeout(connect, wait);
  });
}

async function firstState() {
  let url = "/api/games/" + encodeURIComponent(gameId) + "/state";
  if (mySeat !== null) url += "?seat=" + mySeat + "&token=" + encodeURIComponent(myToken || "");
  try {
    const reply = await fetch(url);
    const data = await reply.json();
    if (!reply.ok) {
      $("refusal").textContent = data.error || "the table is not open to this link";
      return;
    }
    if (!state) {
      state = data;
      render();
    }
  } catch (e) {
    // the websocket brings the state as well
  }
}

$("play").addEventListener("click", playSelected);
$("clear").addEventListener("click", () => {
  selected = new Set();
  for (const card of $("hand").querySelectorAll("button")) card.setAttribute("aria-pressed", "false");
  $("play").disabled = true;
});
$("hint").addEventListener("click", () => send({type: "hint"}, true));
$("next").addEventListener("click", () => send({type: "next"}, true));
$("typed").addEventListener("submit", playTyped);

// ---------------------------------------------------------------- replays

const replay = {summary: null, hand: 0, want: 0, frames: [], marks: [], at: 0, timer: null};

async function fetchJson(url) {
  const reply = await fetch(url);
  const data = await reply.json();
  if (!reply.ok) throw new Error(data.error || "the server gave " + reply.status);
  return data;
}

async function loadReplayHand(number) {
  const hands = replay.summary ? replay.summary.hands : 1;
  if (number < 0 || number >= hands) return;
  replay.want = number;  // pressed several times: only the hand asked for last is drawn
  const base = "/api/replays/" + encodeURIComponent(replayId);
  const data = await fetchJson(base + "/hands/" + number);
  if (replay.want !== number) return;
  replay.hand = number;
  replay.frames = data.frames || [];
  replay.marks = data.marks || [];
  $("replay-fault").textContent = data.fault ? "The record stops here: " + data.fault : "";
  showFrame(0);
}

function showFrame(i) {
  if (!replay.frames.length) return;
  replay.at = Math.max(0, Math.min(replay.frames.length - 1, i));
  state = replay.frames[replay.at];
  render();
  const n = replay.frames.length - 1;
  $("replay-pos").textContent = replay.at === 0 ? "the deal (step 0 of " + n + ")"
    : "step " + replay.at + " of " + n + ": " + ((state.log || []).slice(-1)[0] || "");
  $("replay-prev").disabled = $("replay-first").disabled = $("replay-prev-trick").disabled =
    replay.at === 0;
  $("replay-next").disabled = $("replay-last").disabled = $("replay-next-trick").disabled =
    replay.at === n;
  const hands = replay.summary ? replay.summary.hands : 1;
  $("replay-hands").hidden = hands < 2;
  $("replay-hand").textContent = "hand " + (replay.hand + 1) + " of " + hands;
  $("replay-prev-hand").disabled = replay.want === 0;
  $("replay-next-hand").disabled = replay.want >= hands - 1;
  document.body.dataset.step = String(replay.at);
}

function replayTrick(forward) {
  const marks = replay.marks;
  const next = forward ? marks.find((m) => m > replay.at)
    : [...marks].reverse().find((m) => m < replay.at);
  showFrame(next === undefined ? (forward ? replay.frames.length - 1 : 0) : next);
}

function replayAuto() {
  if (replay.timer) {
    clearInterval(replay.timer);
    replay.timer = null;
    $("replay-auto").textContent = "Play";
    return;
  }
  $("replay-auto").textContent = "Pause";
  replay.timer = setInterval(() => {
    if (replay.at >= replay.frames.length - 1) replayAuto();
    else showFrame(replay.at + 1);
  }, 700);
}

async function startReplay() {
  document.body.classList.add("replay");
  $("replay-bar").hidden = false;
  $("you").hidden = true;
  $("unseen-box").hidden = true;  // every hand is shown: nothing is unseen
  $("connection").textContent = "replay";
  try {
    replay.summary = await fetchJson("/api/replays/" + encodeURIComponent(replayId));
    const s = replay.summary;
    $("replay-name").textContent = "Replay of " + s.name + " (" + s.ruleset.id +
      (s.match ? ", a match of " + s.hands + " deals" : "") + "): " + s.verdict;
    await loadReplayHand(0);
  } catch (e) {
    $("replay-fault").textContent = "Cannot replay: " + e.message;
  }
  $("replay-first").addEventListener("click", () => showFrame(0));
  $("replay-last").addEventListener("click", () => showFrame(replay.frames.length - 1));
  $("replay-prev").addEventListener("click", () => showFrame(replay.at - 1));
  $("replay-next").addEventListener("click", () => showFrame(replay.at + 1));
  $("replay-prev-trick").addEventListener("click", () => replayTrick(false));
  $("replay-next-trick").addEventListener("click", () => replayTrick(true));
  $("replay-auto").addEventListener("click", replayAuto);
  $("replay-prev-hand").addEventListener("click", () => loadReplayHand(replay.want - 1));
  $("replay-next-hand").addEventListener("click", () => loadReplayHand(replay.want + 1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") showFrame(replay.at + 1);
    else if (event.key === "ArrowLeft") showFrame(replay.at - 1);
    else if (event.key === "PageDown") replayTrick(true);
    else if (event.key === "PageUp") replayTrick(false);
  });
}

if (replayId !== null) {
  startReplay();
} else {
  firstState();
  connect();
}
