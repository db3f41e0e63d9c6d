// The page of `unwinnable serve`: asks the API, draws the answer with the
// server's /board.svg, steps through helpmates. No library, no build step.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  fen: "",        // the position asked about
  winner: "white",
  record: null,   // the answer's record
  plies: [],      // helpmate: [{uci, san, placement}] (placement after the move)
  ply: 0,         // 0: the start position
};

// ---- Positions: apply a (legal, server-checked) UCI move to a placement.

function parsePlacement(fen) {
  const board = new Array(64).fill(null); // index: rank * 8 + file, a1 = 0
  const rows = fen.trim().split(/\s+/)[0].split("/");
  for (let r = 0; r < 8; r++) {
    let file = 0;
    for (const c of rows[r] || "") {
      if (c >= "1" && c <= "8") file += Number(c);
      else board[(7 - r) * 8 + file++] = c;
    }
  }
  return board;
}

function placementOf(board) {
  const rows = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = "", empty = 0;
    for (let file = 0; file < 8; file++) {
      const piece = board[rank * 8 + file];
      if (!piece) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += piece;
    }
    rows.push(empty ? row + empty : row);
  }
  return rows.join("/");
}

const square = (name) => (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);

function play(board, uci) {
  const from = square(uci.slice(0, 2)), to = square(uci.slice(2, 4));
  const piece = board[from];
  const next = board.slice();
  const isPawn = piece && piece.toLowerCase() === "p";
  // En passant: a pawn moving diagonally to an empty square.
  if (isPawn && (from % 8) !== (to % 8) && !board[to]) next[(from - from % 8) + (to % 8)] = null;
  // Castling: the king moves two files; the rook jumps over it.
  if (piece && piece.toLowerCase() === "k" && Math.abs((to % 8) - (from % 8)) === 2) {
    const rank = from - (from % 8);
    const [rookFrom, rookTo] = (to % 8) === 6 ? [rank + 7, rank + 5] : [rank, rank + 3];
    next[rookTo] = next[rookFrom];
    next[rookFrom] = null;
  }
  next[to] = uci.length > 4 ? (piece === piece.toUpperCase() ? uci[4].toUpperCase() : uci[4].toLowerCase()) : piece;
  next[from] = null;
  return next;
}

// ---- The API.

async function api(path, options) {
  const response = await fetch(path, options);
  const text = await response.text();
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try { const body = JSON.parse(text); message = body.detail || body.error || message; } catch (_) { /* not JSON */ }
    throw new Error(message);
  }
  return text;
}

const jsonLines = (text) => text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

// ---- The board.

// Draws may overlap (keys pressed quickly): only the latest is shown.
let drawing = 0;

async function drawBoard(placement, marks) {
  const mine = ++drawing;
  const params = new URLSearchParams({ fen: placement, orientation: state.winner === "black" ? "black" : "white" });
  for (const [name, squares] of Object.entries(marks || {})) {
    if (squares && squares.length) params.set(name, squares.join(","));
  }
  const svg = await api(`/board.svg?${params}`);
  if (mine !== drawing) return false;
  // Our own server's drawing, made of escaped text only.
  $("board").innerHTML = svg;
  $("board").setAttribute("aria-label", `board: ${placement}`);
  return true;
}

function winnerName(color) { return color === "white" ? "White" : "Black"; }
function other(color) { return color === "white" ? "black" : "white"; }

// ---- Answers.

function explainVerdict(record) {
  const winner = winnerName(record.winner), loser = winnerName(other(record.winner));
  if (record.verdict === "winnable") {
    const moves = (record.helpmate || []).length;
    if (moves === 0) {
      return [`Yes: ${winner} has already checkmated.`, "The game is over: no move is needed."];
    }
    return [
      `Yes: ${winner} can still checkmate.`,
      `There is a series of ${moves} legal moves (${Math.ceil(moves / 2)} moves each at most) that ends in ${winner}'s checkmate, ` +
      `shown below with both sides cooperating. So if ${loser} runs out of time, ${winner} wins (Art. 6.9).`,
    ];
  }
  if (record.verdict === "unwinnable") {
    return [
      `No: ${winner} cannot checkmate, whatever both sides play.`,
      `No series of legal moves ends in ${winner}'s checkmate. So if ${loser} runs out of time, the game is drawn (Art. 6.9).`,
    ];
  }
  const causes = {
    "node-budget": "the server's limit on positions searched was reached",
    "deadline": "the server's time limit was reached",
    "memory": "the server's memory limit was reached",
    "stopped": "the server was stopping",
    "not-proved": "the quick algorithm could not decide it",
  };
  return [
    "Not decided.",
    `The analysis stopped before an answer (${causes[record.cause] || record.cause}). Neither answer is claimed.`,
  ];
}

function setStepper(visible) {
  $("stepper").hidden = !visible;
}

async function showPly(ply) {
  if (!state.plies.length) return;
  state.ply = Math.max(0, Math.min(ply, state.plies.length));
  const current = state.ply === 0 ? { placement: state.fen } : state.plies[state.ply - 1];
  const marks = {};
  if (state.ply > 0) {
    const uci = current.uci;
    marks.highlight = [uci.slice(0, 2), uci.slice(2, 4)];
    marks.arrows = [uci.slice(0, 4)];
  }
  for (const [index, item] of [...$("moves").children].entries()) {
    item.classList.toggle("current", index === state.ply - 1);
    item.setAttribute("aria-current", index === state.ply - 1 ? "step" : "false");
  }
  const text = state.ply === 0
    ? `Start position (${state.plies.length} moves to mate)`
    : `Move ${state.ply} of ${state.plies.length}: ${current.san}`;
  $("ply").textContent = text;
  $("ply").dataset.ply = String(state.ply);
  $("first").disabled = $("prev").disabled = state.ply === 0;
  $("next").disabled = $("last").disabled = state.ply === state.plies.length;
  const current_item = $("moves").children[state.ply - 1];
  if (current_item) current_item.scrollIntoView({ block: "nearest" });
  if (await drawBoard(current.placement, marks)) $("board").dataset.ply = String(state.ply);
}

function sanTokens(san) {
  // "1...f3 2. Bf1 f2" -> ["f3", "Bf1", "f2"]
  return san.split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t)).map((t) => t.replace(/^\d+\.+/, ""));
}

async function showAnswer(record) {
  state.record = record;
  const [verdict, reason] = explainVerdict(record);
  $("answer").hidden = false;
  $("verdict").textContent = verdict;
  $("verdict").className = `verdict ${record.verdict}`;
  $("verdict").dataset.verdict = record.verdict;
  $("reason").textContent = reason;
  $("detail").textContent = record.reason ? `Why: ${record.reason}.` : "";
  $("legend").hidden = true;
  state.plies = [];
  state.ply = 0;
  delete $("board").dataset.ply;
  $("moves").replaceChildren();
  if (record.verdict === "winnable" && record.helpmate && record.helpmate.length) {
    const sans = sanTokens(record.helpmate_san || "");
    let board = parsePlacement(state.fen);
    record.helpmate.forEach((uci, index) => {
      board = play(board, uci);
      state.plies.push({ uci, san: sans[index] || uci, placement: placementOf(board) });
    });
    // Move numbers: the first ply is White's or Black's.
    const blackFirst = state.fen.split(/\s+/)[1] === "b";
    const fullmove = Number(state.fen.split(/\s+/)[5] || 1);
    state.plies.forEach((p, index) => {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      const plyIndex = index + (blackFirst ? 1 : 0);
      const number = fullmove + Math.floor(plyIndex / 2);
      button.textContent = plyIndex % 2 === 0 ? `${number}. ${p.san}` : (index === 0 ? `${number}… ${p.san}` : p.san);
      button.addEventListener("click", () => showPly(index + 1));
      li.appendChild(button);
      $("moves").appendChild(li);
    });
    setStepper(true);
    await showPly(0);
    return;
  }
  setStepper(false);
  const proof = record.proof;
  if (record.verdict === "unwinnable" && proof && proof.kind === "static") {
    $("legend").hidden = false;
    for (const span of document.querySelectorAll(".loser")) span.textContent = other(record.winner);
    const placement = (proof.fen || state.fen).split(/\s+/)[0];
    if (proof.forced_line) $("detail").textContent += ` The board shows the position after the forced moves ${proof.forced_line}.`;
    await drawBoard(placement, {
      region: proof.king_region,
      safe: proof.safe.map((s) => s.square),
      locked: proof.locked,
    });
    return;
  }
  await drawBoard(state.fen.split(/\s+/)[0], {});
}

function shareUrl() {
  const params = new URLSearchParams({ fen: state.fen, winner: state.winner });
  return `${location.origin}/?${params}`;
}

async function analyse() {
  const fen = $("fen").value.trim();
  const winner = document.querySelector('input[name="winner"]:checked').value;
  showError("");
  if (!fen) { showError("Enter a FEN first."); return; }
  state.fen = fen;
  state.winner = winner;
  history.replaceState(null, "", `/?${new URLSearchParams({ fen, winner })}`);
  $("verdict").textContent = "Analysing…";
  $("verdict").dataset.verdict = "";
  try {
    const params = new URLSearchParams({ fen, winner, explain: "true" });
    const records = jsonLines(await api(`/api/analyze?${params}`));
    await showAnswer(records[0]);
  } catch (error) {
    $("answer").hidden = true;
    showError(`The position cannot be analysed: ${error.message}`);
  }
}

// ---- PGN.

async function adjudicate() {
  showError("");
  const pgn = $("pgn").value;
  if (!pgn.trim()) { showError("Paste a PGN first."); return; }
  const params = new URLSearchParams();
  if ($("timeout-white").checked) params.set("timeout", "white");
  if ($("timeout-black").checked) params.set("timeout", "black");
  let records;
  try {
    records = jsonLines(await api(`/api/adjudicate?${params}`, { method: "POST", body: pgn }));
  } catch (error) {
    showError(`The PGN cannot be read: ${error.message}`);
    return;
  }
  const body = $("games-table").tBodies[0];
  body.replaceChildren();
  let wrong = 0;
  for (const record of records) {
    const row = body.insertRow();
    const cells = record.error
      ? [record.game, "", "", "error", record.error, "", null]
      : [record.game, record.id, record.recorded, record.correct,
         record.article ? `${record.rule} (Art. ${record.article})` : record.rule, record.ply, record];
    cells.slice(0, 6).forEach((value) => { row.insertCell().textContent = value === undefined ? "" : String(value); });
    const open = row.insertCell();
    if (record.error) {
      row.classList.add("error-row");
    } else {
      if (record.wrong) { row.classList.add("wrong"); wrong++; }
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "Open";
      button.setAttribute("aria-label", `open the final position of game ${record.game}`);
      button.addEventListener("click", () => openGame(record));
      open.appendChild(button);
    }
  }
  $("games").hidden = false;
  $("games-summary").textContent =
    `${records.length} game${records.length === 1 ? "" : "s"}, ${wrong} with a wrong recorded result.`;
}

async function openGame(record) {
  $("fen").value = record.fen;
  // The player who can still win on time: the side not to move, unless the
  // recorded winner says otherwise.
  const toMove = record.fen.split(/\s+/)[1] === "w" ? "white" : "black";
  let winner = other(toMove);
  if (record.correct === "1-0") winner = "white";
  if (record.correct === "0-1") winner = "black";
  document.querySelector(`input[name="winner"][value="${winner}"]`).checked = true;
  await analyse();
  $("answer").scrollIntoView({ block: "start" });
}

// ---- Wiring.

function onKey(event) {
  const tag = (event.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "textarea" || tag === "select" || !state.plies.length) return;
  const moves = { ArrowRight: state.ply + 1, ArrowLeft: state.ply - 1, Home: 0, End: state.plies.length };
  if (event.key in moves) {
    event.preventDefault();
    showPly(moves[event.key]);
  }
}

async function loadExamples() {
  try {
    const positions = JSON.parse(await api("/api/positions"));
    for (const p of positions) {
      const option = document.createElement("option");
      option.value = p.fen;
      option.textContent = `Position ${p.id} (${p.label === "--" ? "dead" : p.label === "WB" ? "both can mate" : p.label === "W-" ? "only White can mate" : "only Black can mate"})`;
      $("examples").appendChild(option);
    }
  } catch (_) { /* the list is a convenience */ }
}

document.addEventListener("DOMContentLoaded", async () => {
  $("ask").addEventListener("submit", (event) => { event.preventDefault(); analyse(); });
  $("examples").addEventListener("change", () => { if ($("examples").value) { $("fen").value = $("examples").value; analyse(); } });
  $("adjudicate").addEventListener("click", adjudicate);
  $("first").addEventListener("click", () => showPly(0));
  $("prev").addEventListener("click", () => showPly(state.ply - 1));
  $("next").addEventListener("click", () => showPly(state.ply + 1));
  $("last").addEventListener("click", () => showPly(state.plies.length));
  $("copy").addEventListener("click", async () => {
    const url = shareUrl();
    try { await navigator.clipboard.writeText(url); $("copied").textContent = "Link copied."; }
    catch (_) { $("copied").textContent = url; }
  });
  for (const radio of document.querySelectorAll('input[name="winner"]')) {
    radio.addEventListener("change", () => { if (state.fen) analyse(); });
  }
  document.addEventListener("keydown", onKey);
  await loadExamples();
  const params = new URLSearchParams(location.search);
  if (params.get("fen")) {
    $("fen").value = params.get("fen");
    const winner = params.get("winner") === "black" ? "black" : "white";
    document.querySelector(`input[name="winner"][value="${winner}"]`).checked = true;
    await analyse();
  }
  document.body.dataset.ready = "true";
});
