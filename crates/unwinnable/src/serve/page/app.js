// The page of `unwinnable serve`: a board to set a position up on, the
// answer for both colours drawn on it (the proof's squares, or the helpmate
// stepped through), and whole games adjudicated from PGN. No library, no
// build step; the board is drawn here, with the pieces of /pieces.svg.
"use strict";

const $ = (id) => document.getElementById(id);
const SIZE = 45; // one square, in SVG units
const COLORS = ["white", "black"];
const NAMES = { K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight", P: "pawn" };

// ---- The position being set up.

const setup = {
  board: new Array(64).fill(null), // index: rank * 8 + file (a1 = 0); FEN letters
  turn: "w",
  castling: [], // the squares of the rooks that may castle (any file: Chess960)
  ep: "-",
  halfmove: 0,
  fullmove: 1,
};

const view = {
  flipped: false,   // the Flip button
  tool: "move",     // "move", "erase" or a FEN letter
  cursor: 0,        // the keyboard cursor's square
  selected: null,   // a square picked up by a click, to move
  marks: null,      // what the answer draws: {region, safe: [{square, why}], locked, arrow, highlight, mated}
  placement: null,  // the placement shown, when it is not the setup's (a helpmate's ply)
};

const squareName = (index) => "abcdefgh"[index % 8] + (Math.floor(index / 8) + 1);
const squareIndex = (name) => (name.charCodeAt(1) - 49) * 8 + (name.charCodeAt(0) - 97);
const colorOf = (piece) => (piece === piece.toUpperCase() ? "white" : "black");
const pieceName = (piece) => `${colorOf(piece)} ${NAMES[piece.toUpperCase()]}`;
const winnerName = (color) => (color === "white" ? "White" : "Black");
const other = (color) => (color === "white" ? "black" : "white");

function parsePlacement(placement) {
  const rows = placement.split("/");
  if (rows.length !== 8) return null;
  const board = new Array(64).fill(null);
  for (let r = 0; r < 8; r++) {
    let file = 0;
    for (const c of rows[r]) {
      if (c >= "1" && c <= "8") file += Number(c);
      else if ("KQRBNPkqrbnp".includes(c) && file < 8) board[(7 - r) * 8 + file++] = c;
      else return null;
    }
    if (file !== 8) return null;
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

// The rooks that may hold a castling right: those on their side's first
// rank, with that side's king on it too (any files: Chess960), each on the
// king's side or the queen's.
function castlingRooks(board) {
  const rooks = [];
  for (const [king, rook, rank] of [["K", "R", 0], ["k", "r", 7]]) {
    let kingFile = -1;
    for (let f = 0; f < 8; f++) if (board[rank * 8 + f] === king) kingFile = f;
    if (kingFile < 0) continue;
    for (let f = 0; f < 8; f++) {
      if (board[rank * 8 + f] === rook) {
        rooks.push({ square: squareName(rank * 8 + f), white: king === "K", kingSide: f > kingFile, standard: kingFile === 4 && (f === 0 || f === 7) });
      }
    }
  }
  return rooks;
}

// The FEN's castling field: KQkq when every right is standard chess's (the
// king on e1/e8, the rook in the corner), else Shredder-FEN's rook files
// (HAha), which every reader takes as Chess960.
function castlingField() {
  const rooks = castlingRooks(setup.board).filter((r) => setup.castling.includes(r.square));
  if (!rooks.length) return "-";
  const order = (r) => (r.white ? 0 : 2) + (r.kingSide ? 0 : 1);
  rooks.sort((a, b) => order(a) - order(b));
  const standard = rooks.every((r) => r.standard);
  return rooks.map((r) => {
    const letter = standard ? (r.kingSide ? "k" : "q") : r.square[0];
    return r.white ? letter.toUpperCase() : letter;
  }).join("");
}

function fenOf() {
  return `${placementOf(setup.board)} ${setup.turn} ${castlingField()} ${setup.ep} ${setup.halfmove} ${setup.fullmove}`;
}

// The rook squares a castling field names on `board` (X-FEN: K/Q the
// outermost rook on that side of the king; Shredder-FEN: the rook's file),
// or an error message.
function readCastling(field, board) {
  if (field === "-") return [];
  if (!/^[KQkqA-Ha-h]+$/.test(field)) return "castling is written KQkq, with rook files (HAha), or -";
  const rooks = castlingRooks(board);
  const squares = [];
  for (const c of field) {
    const white = c === c.toUpperCase();
    const mine = rooks.filter((r) => r.white === white);
    let rook;
    if (c.toUpperCase() === "K") rook = mine.filter((r) => r.kingSide).pop();
    else if (c.toUpperCase() === "Q") rook = mine.filter((r) => !r.kingSide)[0];
    else rook = mine.find((r) => r.square[0] === c.toLowerCase());
    if (!rook) return `castling ${c}: no ${white ? "white" : "black"} rook for it beside its king on the first rank`;
    squares.push(rook.square);
  }
  return squares;
}

// Reads a FEN into the setup; null if it cannot be read, else the setup.
function readFen(text) {
  const fields = text.trim().split(/\s+/);
  const board = parsePlacement(fields[0] || "");
  if (!board) return "the piece placement needs 8 ranks of 8 squares";
  const turn = fields[1] || "w";
  if (turn !== "w" && turn !== "b") return "the side to move is w or b";
  const castling = readCastling(fields[2] || "-", board);
  if (typeof castling === "string") return castling;
  setup.board = board;
  setup.turn = turn;
  setup.castling = castling;
  setup.ep = fields[3] || "-";
  setup.halfmove = Number(fields[4] || 0) || 0;
  setup.fullmove = Number(fields[5] || 1) || 1;
  return null;
}

// ---- The board, drawn as SVG.

function corner(index) {
  const file = index % 8, rank = Math.floor(index / 8);
  const whiteBottom = !orientationBlack();
  return [(whiteBottom ? file : 7 - file) * SIZE, (whiteBottom ? 7 - rank : rank) * SIZE];
}

function orientationBlack() {
  return (winner() === "black") !== view.flipped;
}

function svgEl(name, attributes) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [key, value] of Object.entries(attributes || {})) el.setAttribute(key, value);
  return el;
}

function pieceUse(piece, x, y, extra) {
  const id = (piece === piece.toUpperCase() ? "w" : "b") + piece.toUpperCase();
  return svgEl("use", { href: `#${id}`, x, y, width: SIZE, height: SIZE, ...extra });
}

const SAFE_WHY = {
  "never-attacked": (winner) => `never attacked by ${winner}: no checkmate can happen there`,
  "no-mating-net": () => "whenever the king stands there, it keeps an escape: no checkmate there",
  "too-few-guards": (winner) => `${winner} has too few pieces to guard it and all its escapes at once: no checkmate there`,
};

// What a square shows in answer mode, in words.
function squareReason(index) {
  const name = squareName(index);
  const marks = view.marks;
  const board = view.placement ? parsePlacement(view.placement) : setup.board;
  const piece = board[index];
  const parts = [piece ? `${name}: ${pieceName(piece)}` : `${name}: empty`];
  if (marks && marks.region) {
    const record = shownRecord();
    const loser = record ? other(record.winner) : "";
    if (marks.region.includes(name)) parts.push(`the ${loser} king can reach it`);
    else if (marks.kind === "static") parts.push(`the ${loser} king never reaches it`);
    const safe = (marks.safe || []).find((s) => s.square === name);
    if (safe && SAFE_WHY[safe.why]) parts.push(SAFE_WHY[safe.why](record ? winnerName(record.winner) : ""));
    if ((marks.locked || []).includes(name)) parts.push("this piece never leaves its square");
  }
  if (marks && marks.mated === name) parts.push("the mated king");
  return parts.join("; ");
}

function drawBoard() {
  const placement = view.placement || placementOf(setup.board);
  const board = parsePlacement(placement);
  const marks = view.marks || {};
  const svg = svgEl("svg", { viewBox: `0 0 ${8 * SIZE} ${8 * SIZE}`, class: "board-svg", role: "img" });
  svg.setAttribute("aria-label", `Board: ${placement}, ${setup.turn === "w" ? "White" : "Black"} to move`);
  svg.dataset.bottom = orientationBlack() ? "black" : "white";
  svg.dataset.placement = placement;
  const defs = svgEl("defs");
  const head = svgEl("marker", { id: "head", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto" });
  head.appendChild(svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: "#1565c0", "fill-opacity": "0.55" }));
  defs.appendChild(head);
  svg.appendChild(defs);
  const region = new Set(marks.region || []);
  for (let index = 0; index < 64; index++) {
    const [x, y] = corner(index);
    const name = squareName(index);
    const light = (index % 8 + Math.floor(index / 8)) % 2 === 1;
    const classes = ["square", light ? "light" : "dark"];
    if (region.has(name)) classes.push("region");
    if ((marks.highlight || []).includes(name)) classes.push("highlight");
    if (view.selected === index) classes.push("selected");
    const rect = svgEl("rect", { x, y, width: SIZE, height: SIZE, "data-square": name, class: classes.join(" ") });
    const title = svgEl("title");
    title.textContent = view.marks ? squareReason(index) : name;
    rect.appendChild(title);
    svg.appendChild(rect);
    // Coordinates along the bottom and left edges.
    const [, bottomY] = corner(orientationBlack() ? 56 + (index % 8) : index % 8);
    if (y === bottomY) {
      const t = svgEl("text", { x: x + SIZE - 3, y: y + SIZE - 3, class: "coord", "text-anchor": "end" });
      t.textContent = name[0];
      svg.appendChild(t);
    }
    if (x === 0) {
      const t = svgEl("text", { x: 2.5, y: y + 10, class: "coord" });
      t.textContent = name[1];
      svg.appendChild(t);
    }
  }
  // The proof's marks, in the squares' corners (never over a piece).
  for (const safe of marks.safe || []) {
    const [x, y] = corner(squareIndex(safe.square));
    const attrs = { "data-square": safe.square, class: `mark ${safe.why}` };
    let mark;
    // Bottom left: the ranks' numbers are top left, the files' letters bottom right, the padlocks top right.
    const [mx, my] = [x + 6, y + SIZE - 6];
    if (safe.why === "never-attacked") mark = svgEl("circle", { cx: mx, cy: my, r: 3.8, ...attrs });
    else if (safe.why === "no-mating-net") mark = svgEl("path", { d: `M${mx} ${my - 4.6}l4.6 4.6-4.6 4.6-4.6-4.6z`, ...attrs });
    else mark = svgEl("path", { d: `M${mx} ${my - 4.6}l4.8 8.4h-9.6z`, ...attrs });
    svg.appendChild(mark);
  }
  if (marks.mated) {
    const [x, y] = corner(squareIndex(marks.mated));
    svg.appendChild(svgEl("circle", { cx: x + SIZE / 2, cy: y + SIZE / 2, r: SIZE / 2 - 2, class: "mated", "data-square": marks.mated }));
  }
  // The move's arrow under the pieces, translucent: it never hides them.
  for (const uci of marks.arrows || []) {
    const [fx, fy] = corner(squareIndex(uci.slice(0, 2)));
    const [tx, ty] = corner(squareIndex(uci.slice(2, 4)));
    const [x1, y1, x2, y2] = [fx + SIZE / 2, fy + SIZE / 2, tx + SIZE / 2, ty + SIZE / 2];
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    const shorten = 13 / length;
    svg.appendChild(svgEl("line", {
      x1, y1, x2: x2 - (x2 - x1) * shorten, y2: y2 - (y2 - y1) * shorten,
      class: "arrow", "marker-end": "url(#head)", "data-from": uci.slice(0, 2), "data-to": uci.slice(2, 4),
    }));
  }
  for (let index = 0; index < 64; index++) {
    const piece = board[index];
    if (!piece) continue;
    const [x, y] = corner(index);
    const use = pieceUse(piece, x, y, { class: "piece", "data-square": squareName(index), "data-piece": piece });
    if (drag && drag.from === index && drag.moved) use.setAttribute("opacity", "0.3");
    svg.appendChild(use);
  }
  for (const name of marks.locked || []) {
    const [x, y] = corner(squareIndex(name));
    const lock = svgEl("g", { class: "lock", "data-square": name, transform: `translate(${x + SIZE - 13} ${y + 2})` });
    lock.appendChild(svgEl("path", { d: "M2 6V4.2a3 3 0 0 1 6 0V6", fill: "none", stroke: "#c62828", "stroke-width": 1.8 }));
    lock.appendChild(svgEl("rect", { x: 0.5, y: 5.5, width: 9, height: 6.5, rx: 1, fill: "#c62828" }));
    svg.appendChild(lock);
  }
  // The keyboard's cursor (shown while the board has the keyboard focus).
  const [cx, cy] = corner(view.cursor);
  svg.appendChild(svgEl("rect", { x: cx + 1.5, y: cy + 1.5, width: SIZE - 3, height: SIZE - 3, class: "cursor" }));
  $("board").replaceChildren(svg);
  $("board").dataset.mode = view.placement ? "helpmate" : (view.marks ? "answer" : "edit");
}

// ---- Editing.

function editable() {
  return !view.placement;
}

// Forgets the analysis on screen (and stops it, if it runs): the position
// changed.
function abandon() {
  if (!current) return;
  if (current.busy) {
    current.busy = false;
    current.controller.abort();
    clearTimeout(current.timer);
    setBusy(false);
  }
  generation++;
  current = null;
}

// The setup changed: the answer on screen is of another position.
function edited() {
  abandon();
  const allowed = castlingRooks(setup.board).map((r) => r.square);
  setup.castling = setup.castling.filter((square) => allowed.includes(square));
  setup.ep = "-";
  $("fen").value = fenOf();
  $("fen").removeAttribute("aria-invalid");
  $("fen-error").hidden = true;
  syncControls();
  clearAnswer();
  drawBoard();
}

function syncControls() {
  for (const radio of document.querySelectorAll('input[name="turn"]')) radio.checked = radio.value === setup.turn;
  // One box per rook that may castle (Chess960: any rook of the first
  // rank, on either side of its king).
  const field = $("castling");
  for (const label of field.querySelectorAll("label")) label.remove();
  const rooks = castlingRooks(setup.board);
  $("castling-none").hidden = rooks.length > 0;
  for (const rook of rooks) {
    const label = document.createElement("label");
    const side = rook.kingSide ? "O-O" : "O-O-O";
    label.title = `${winnerName(rook.white ? "white" : "black")} may castle ${rook.kingSide ? "short" : "long"} with the rook on ${rook.square}`;
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = rook.square;
    box.checked = setup.castling.includes(rook.square);
    box.addEventListener("change", () => {
      // One right a side: another rook on the same side loses it.
      const same = rooks.filter((r) => r.white === rook.white && r.kingSide === rook.kingSide).map((r) => r.square);
      setup.castling = setup.castling.filter((square) => !same.includes(square));
      if (box.checked) setup.castling.push(rook.square);
      edited();
    });
    label.append(box, ` ${rook.white ? "" : "…"}${side} ${rook.square}`);
    field.append(label);
  }
}

function put(index, piece) {
  if (piece && piece.toUpperCase() === "K") {
    // One king of each colour: placing one moves it.
    const old = setup.board.indexOf(piece);
    if (old >= 0) setup.board[old] = null;
  }
  setup.board[index] = piece;
}

function applyTool(index) {
  if (!editable()) return;
  const current = setup.board[index];
  if (view.tool === "erase") {
    setup.board[index] = null;
  } else if (view.tool === "move") {
    if (view.selected === null) {
      if (current) { view.selected = index; drawBoard(); }
      return;
    }
    const from = view.selected;
    view.selected = null;
    if (from !== index) {
      const piece = setup.board[from];
      setup.board[from] = null;
      setup.board[index] = piece;
    }
  } else {
    put(index, current === view.tool ? null : view.tool);
  }
  edited();
}

function buildPalette() {
  const tools = [["move", "move pieces (drag, or click a piece then a square)"], ["erase", "remove pieces"]];
  for (const piece of "KQRBNPkqrbnp") tools.push([piece, pieceName(piece)]);
  for (const [tool, label] of tools) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.tool = tool;
    button.setAttribute("aria-label", label);
    button.title = label;
    if (tool === "move" || tool === "erase") {
      button.textContent = tool === "move" ? "✥" : "✕";
      button.classList.add("tool-icon");
    } else {
      const svg = svgEl("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, "aria-hidden": "true" });
      svg.appendChild(pieceUse(tool, 0, 0));
      button.appendChild(svg);
    }
    button.addEventListener("click", () => chooseTool(tool));
    button.addEventListener("pointerdown", (event) => {
      if (tool !== "move" && tool !== "erase" && editable()) startDrag(event, null, tool);
    });
    $("palette").appendChild(button);
  }
  chooseTool("move");
}

function chooseTool(tool) {
  view.tool = tool;
  view.selected = null;
  // Choosing a tool goes back to setting up the position.
  if (view.marks || view.placement) {
    view.marks = null;
    view.placement = null;
  }
  for (const button of $("palette").children) button.setAttribute("aria-pressed", String(button.dataset.tool === tool));
  drawBoard();
}

// Dragging a piece (from the board or the palette): dropped on a square it
// goes there, dropped off the board it is removed.
let drag = null;

function squareAt(clientX, clientY) {
  const svg = $("board").querySelector("svg");
  if (!svg) return null;
  const box = svg.getBoundingClientRect();
  const column = Math.floor(((clientX - box.left) / box.width) * 8);
  const row = Math.floor(((clientY - box.top) / box.height) * 8);
  if (column < 0 || column > 7 || row < 0 || row > 7) return null;
  const black = orientationBlack();
  const file = black ? 7 - column : column, rank = black ? row : 7 - row;
  return rank * 8 + file;
}

function startDrag(event, from, piece) {
  drag = { from, piece, x: event.clientX, y: event.clientY, moved: false, ghost: null, pointer: event.pointerId };
}

document.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.pointer) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 5) return;
  if (!drag.moved) {
    drag.moved = true;
    const size = $("board").getBoundingClientRect().width / 8;
    const ghost = svgEl("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, class: "ghost", width: size, height: size });
    ghost.appendChild(pieceUse(drag.piece, 0, 0));
    document.body.appendChild(ghost);
    drag.ghost = ghost;
    drag.size = size;
    drawBoard();
  }
  drag.ghost.style.left = `${event.clientX - drag.size / 2}px`;
  drag.ghost.style.top = `${event.clientY - drag.size / 2}px`;
  event.preventDefault();
});

document.addEventListener("pointerup", (event) => {
  if (!drag || event.pointerId !== drag.pointer) return;
  const finished = drag;
  drag = null;
  if (finished.ghost) finished.ghost.remove();
  if (!finished.moved) return; // a click: handled by the click handlers
  // The click that follows a drag is not a click on a square.
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  const to = squareAt(event.clientX, event.clientY);
  if (finished.from !== null) setup.board[finished.from] = null;
  if (to !== null) put(to, finished.piece);
  view.selected = null;
  edited();
});

let suppressClick = false;

function wireBoard() {
  const board = $("board");
  board.addEventListener("pointerdown", (event) => {
    const index = squareAt(event.clientX, event.clientY);
    if (index === null || !editable() || view.tool === "erase") return;
    const piece = setup.board[index];
    if (piece && (view.tool === "move" || view.tool === piece)) {
      startDrag(event, index, piece);
    }
  });
  board.addEventListener("click", (event) => {
    if (suppressClick) { suppressClick = false; return; }
    const index = squareAt(event.clientX, event.clientY);
    if (index === null) return;
    view.cursor = index;
    if (view.marks || view.placement) {
      $("square-info").textContent = squareReason(index);
      $("cursor").textContent = squareReason(index);
      return;
    }
    applyTool(index);
  });
  board.addEventListener("keydown", (event) => {
    const black = orientationBlack();
    const steps = { ArrowUp: black ? -8 : 8, ArrowDown: black ? 8 : -8, ArrowLeft: black ? 1 : -1, ArrowRight: black ? -1 : 1 };
    if (event.key in steps) {
      const next = view.cursor + steps[event.key];
      const sameRow = Math.abs(steps[event.key]) !== 1 || Math.floor(next / 8) === Math.floor(view.cursor / 8);
      if (next >= 0 && next < 64 && sameRow) view.cursor = next;
      event.preventDefault();
      event.stopPropagation();
      drawBoard();
      const text = view.marks ? squareReason(view.cursor) : squareReason(view.cursor).split(";")[0];
      $("cursor").textContent = text;
      if (view.marks) $("square-info").textContent = text;
    } else if ((event.key === "Enter" || event.key === " ") && !view.marks) {
      event.preventDefault();
      applyTool(view.cursor);
    } else if ((event.key === "Delete" || event.key === "Backspace") && editable()) {
      event.preventDefault();
      setup.board[view.cursor] = null;
      edited();
    }
  });
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
  $("error").textContent = message;
  $("error").hidden = !message;
}

// ---- Analysis: both colours at once, the latest request winning.

let current = null; // {generation, fen, controller, records: {white, black}, errors: {}, started}
let generation = 0;

function winner() {
  const checked = document.querySelector('input[name="winner"]:checked');
  return checked ? checked.value : (setup.turn === "w" ? "black" : "white");
}

function setWinner(color) {
  for (const radio of document.querySelectorAll('input[name="winner"]')) radio.checked = radio.value === color;
}

function shownRecord() {
  return current && current.records[winner()];
}

function setBusy(busy) {
  $("analyse").disabled = busy;
  $("cancel").hidden = !busy;
  $("answer").setAttribute("aria-busy", String(busy));
  document.body.dataset.busy = String(busy);
  if (busy) {
    const tick = () => {
      if (!current || !current.busy) return;
      const seconds = ((performance.now() - current.started) / 1000).toFixed(1);
      const waiting = COLORS.filter((c) => !current.records[c] && !current.errors[c]).map(winnerName);
      $("busy").textContent = `Analysing… ${seconds} s${waiting.length ? ` (${waiting.join(" and ")})` : ""}`;
      current.timer = setTimeout(tick, 100);
    };
    tick();
  } else {
    $("busy").textContent = "";
  }
}

function cancelAnalysis(message) {
  if (!current || !current.busy) return;
  current.busy = false;
  current.controller.abort();
  clearTimeout(current.timer);
  setBusy(false);
  if (message) {
    $("busy").textContent = message;
    // The colours not answered yet stay unanswered.
    for (const color of COLORS) {
      if (!current.records[color] && !current.errors[color]) current.errors[color] = "cancelled";
    }
    render();
  }
}

async function analyse() {
  const fen = fenOf();
  showError("");
  cancelAnalysis(null);
  const mine = ++generation;
  const controller = new AbortController();
  current = { generation: mine, fen, controller, records: {}, errors: {}, started: performance.now(), busy: true };
  history.replaceState(null, "", `/?${new URLSearchParams({ fen, winner: winner() })}`);
  clearAnswer();
  $("answer").hidden = false;
  setBusy(true);
  render();
  const requests = COLORS.map(async (color) => {
    const params = new URLSearchParams({ fen, winner: color, explain: "true", certificate: "true" });
    try {
      const records = jsonLines(await api(`/api/analyze?${params}`, { signal: controller.signal }));
      if (mine !== generation) return;
      current.records[color] = records[0];
    } catch (error) {
      if (mine !== generation || error.name === "AbortError") return;
      current.errors[color] = error.message;
    }
    render();
  });
  await Promise.all(requests);
  if (mine !== generation || !current.busy) return;
  current.busy = false;
  clearTimeout(current.timer);
  setBusy(false);
  render();
}

function clearAnswer() {
  view.marks = null;
  view.placement = null;
  plies = [];
  ply = 0;
  $("answer").hidden = true;
  $("stepper").hidden = true;
  $("proof").hidden = true;
  $("square-info").textContent = "";
  delete $("board").dataset.ply;
}

const CAUSES = {
  "node-budget": "the server's limit on positions searched was reached",
  "deadline": "the server's time limit was reached",
  "memory": "the server's memory for one analysis was not enough",
  "stopped": "the analysis was stopped",
  "not-proved": "the quick algorithm could not decide it",
  "helpmate-too-long": "a mate is reachable, but its moves are longer than a helpmate may be",
};

function explain(record) {
  const w = winnerName(record.winner), l = winnerName(other(record.winner));
  if (record.verdict === "winnable") {
    if (!(record.helpmate || []).length) return [`Yes: ${w} has already checkmated.`, "The game is over: no move is needed."];
    return [`Yes: ${w} can still checkmate.`,
      `A series of legal moves ends in ${w}'s checkmate (shown below, both sides cooperating). If ${l} runs out of time, ${w} wins (Art. 6.9).`];
  }
  if (record.verdict === "unwinnable") {
    return [`No: ${w} cannot checkmate, whatever both sides play.`,
      `No series of legal moves ends in ${w}'s checkmate. If ${l} runs out of time, the game is drawn (Art. 6.9).`];
  }
  return ["Not decided.", `The analysis ended before an answer: ${CAUSES[record.cause] || record.cause}. Neither answer is claimed.`];
}

// The badge of the independent checker's result on the record's certificate.
function showChecked(record) {
  const badge = $("checked");
  const checked = record.checked || "";
  badge.hidden = !checked;
  badge.dataset.checked = checked.startsWith("accepted") ? "accepted" : "rejected";
  badge.title = "";
  if (checked === "accepted") {
    badge.textContent = "\u2713 Checked by the independent checker";
    badge.title = "The answer's certificate was verified by a separate program on another move generator (unwinnable check).";
  } else if (checked.startsWith("rejected: not certified")) {
    badge.textContent = "No certificate for this proof";
    badge.title = checked.replace(/^rejected: not certified: /, "");
  } else if (checked) {
    badge.textContent = `Independent check: ${checked}`;
  }
}

function shortLine(record) {
  if (!record) return "";
  const w = winnerName(record.winner);
  if (record.verdict === "winnable") return `${w} can still checkmate.`;
  if (record.verdict === "unwinnable") return `${w} cannot checkmate.`;
  return `not decided whether ${w} can checkmate.`;
}

// Draws the answer of the selected colour (never another colour's).
function render() {
  if (!current) return;
  const color = winner();
  const record = current.records[color];
  $("answer").hidden = false;
  $("answer").dataset.winner = color;
  const both = current.records.white && current.records.black;
  const dead = both && current.records.white.verdict === "unwinnable" && current.records.black.verdict === "unwinnable";
  $("dead").hidden = !dead;
  $("dead").textContent = dead ? "Dead position: drawn at once (Art. 5.2.2). Neither side can checkmate by any series of legal moves." : "";
  const otherRecord = current.records[other(color)];
  $("other").textContent = otherRecord && !dead ? `The other side: ${shortLine(otherRecord)}` : "";
  if (!record) {
    const error = current.errors[color];
    const cancelled = error === "cancelled";
    $("verdict").textContent = cancelled ? "Not analysed: cancelled." : error ? "The position cannot be analysed." : `Analysing for ${winnerName(color)}…`;
    $("verdict").className = "verdict";
    $("verdict").dataset.verdict = cancelled ? "cancelled" : error ? "error" : "";
    $("verdict").dataset.winner = color;
    $("reason").textContent = cancelled ? "Analyse again to get an answer." : error || "";
    for (const id of ["detail", "next-step", "unreachable", "checked"]) { $(id).textContent = ""; }
    $("checked").hidden = true;
    $("next-step").hidden = true;
    $("unreachable").hidden = true;
    view.marks = null;
    view.placement = null;
    $("stepper").hidden = true;
    $("proof").hidden = true;
    drawBoard();
    return;
  }
  const [verdict, reason] = explain(record);
  $("verdict").textContent = verdict;
  $("verdict").className = `verdict ${record.verdict}`;
  $("verdict").dataset.verdict = record.verdict;
  $("verdict").dataset.winner = record.winner;
  $("reason").textContent = reason;
  $("detail").textContent = record.reason && record.verdict !== "undetermined" ? `Why: ${record.reason}.` : "";
  showChecked(record);
  $("unreachable").hidden = !record.unreachable;
  $("unreachable").textContent = record.unreachable
    ? `No game can reach this position: ${record.unreachable}. It is analysed as given.` : "";
  const undecided = record.verdict === "undetermined";
  $("next-step").hidden = !undecided;
  if (undecided) {
    const command = `unwinnable analyze --nodes 1000000000 '${current.fen}' ${record.winner}`;
    $("next-step").textContent = record.cause === "stopped"
      ? "Analyse again to get an answer."
      : `What would decide it: more positions searched, or more time, than this server allows (it searched ${record.nodes.toLocaleString("en")}). Run the command line, which has no such limits, on your own machine: ${command}`;
  }
  showRecordOnBoard(record);
}

let plies = [];
let ply = 0;

function sanTokens(san) {
  return san.split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t)).map((t) => t.replace(/^\d+\.+/, ""));
}

function play(board, uci) {
  const from = squareIndex(uci.slice(0, 2)), to = squareIndex(uci.slice(2, 4));
  const piece = board[from];
  const next = board.slice();
  const isPawn = piece && piece.toLowerCase() === "p";
  if (isPawn && (from % 8) !== (to % 8) && !board[to]) next[(from - from % 8) + (to % 8)] = null;
  if (piece && piece.toLowerCase() === "k" && Math.abs((to % 8) - (from % 8)) === 2) {
    const rank = from - (from % 8);
    const [rookFrom, rookTo] = (to % 8) === 6 ? [rank + 7, rank + 5] : [rank, rank + 3];
    next[rookTo] = next[rookFrom];
    next[rookFrom] = null;
  }
  next[to] = uci.length > 4 ? (colorOf(piece) === "white" ? uci[4].toUpperCase() : uci[4].toLowerCase()) : piece;
  next[from] = null;
  return next;
}

function showRecordOnBoard(record) {
  view.marks = null;
  view.placement = null;
  $("proof").hidden = true;
  $("stepper").hidden = true;
  const fen = current.fen.split(/\s+/);
  const loserKing = (board) => squareName(board.indexOf(record.winner === "white" ? "k" : "K"));
  if (record.verdict === "winnable") {
    const moves = record.helpmate || [];
    if (!moves.length) {
      view.marks = { mated: loserKing(setup.board) };
      drawBoard();
      return;
    }
    const sans = sanTokens(record.helpmate_san || "");
    let board = setup.board.slice();
    plies = moves.map((uci, index) => {
      board = play(board, uci);
      return { uci, san: sans[index] || uci, placement: placementOf(board), board };
    });
    const blackFirst = fen[1] === "b";
    const fullmove = Number(fen[5] || 1);
    plies.forEach((p, index) => {
      const offset = index + (blackFirst ? 1 : 0);
      p.number = fullmove + Math.floor(offset / 2);
      p.label = offset % 2 === 0 ? `${p.number}.${p.san}` : `${p.number}…${p.san}`;
    });
    const lastNumber = plies[plies.length - 1].number;
    const movesCount = lastNumber - fullmove + 1;
    $("helpmate-title").textContent =
      `Helpmate in ${movesCount} (${plies.length} plies): ${winnerName(record.winner)} mates with both sides cooperating.`;
    const list = $("moves");
    list.replaceChildren();
    plies.forEach((p, index) => {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      const offset = index + (blackFirst ? 1 : 0);
      button.textContent = offset % 2 === 0 ? `${p.number}.${p.san}` : (index === 0 ? `${p.number}…${p.san}` : p.san);
      button.setAttribute("aria-label", `move ${p.label}`);
      button.addEventListener("click", () => showPly(index + 1));
      li.appendChild(button);
      list.appendChild(li);
    });
    $("stepper").hidden = false;
    showPly(0);
    return;
  }
  const proof = record.proof;
  if (record.verdict === "unwinnable" && proof && proof.kind === "static") {
    for (const span of document.querySelectorAll(".loser")) span.textContent = other(record.winner);
    for (const span of document.querySelectorAll(".winner-name")) span.textContent = winnerName(record.winner);
    $("proof").hidden = false;
    const shown = (proof.fen || current.fen).split(/\s+/)[0];
    if (proof.forced_line) {
      $("detail").textContent += ` The board shows the position after the forced moves ${proof.forced_line}.`;
      view.placement = shown;
    }
    view.marks = { kind: "static", region: proof.king_region, safe: proof.safe, locked: proof.locked };
  }
  drawBoard();
}

function showPly(index) {
  if (!plies.length) return;
  ply = Math.max(0, Math.min(index, plies.length));
  const record = shownRecord();
  if (ply === 0) {
    view.placement = null;
    view.marks = { helpmate: true };
  } else {
    const p = plies[ply - 1];
    view.placement = p.placement;
    view.marks = { helpmate: true, highlight: [p.uci.slice(0, 2), p.uci.slice(2, 4)], arrows: [p.uci.slice(0, 4)] };
    if (ply === plies.length && record) view.marks.mated = squareName(p.board.indexOf(record.winner === "white" ? "k" : "K"));
  }
  for (const [i, item] of [...$("moves").children].entries()) {
    item.classList.toggle("current", i === ply - 1);
    item.firstChild.setAttribute("aria-current", i === ply - 1 ? "step" : "false");
  }
  $("ply").textContent = ply === 0 ? "The position as set up." : `${plies[ply - 1].label} (ply ${ply} of ${plies.length})`;
  $("ply").dataset.ply = String(ply);
  $("first").disabled = $("prev").disabled = ply === 0;
  $("next").disabled = $("last").disabled = ply === plies.length;
  const item = $("moves").children[ply - 1];
  if (item) item.scrollIntoView({ block: "nearest" });
  drawBoard();
  $("board").dataset.ply = String(ply);
}

// ---- Games (PGN).

let adjudication = null; // {controller}

async function adjudicate(body, label) {
  showError("");
  if (adjudication) adjudication.controller.abort();
  const controller = new AbortController();
  adjudication = { controller };
  const params = new URLSearchParams();
  if ($("timeout-white").checked) params.set("timeout", "white");
  if ($("timeout-black").checked) params.set("timeout", "black");
  const tbody = $("games-table").tBodies[0];
  tbody.replaceChildren();
  $("games").hidden = false;
  let count = 0, wrong = 0, errors = 0;
  const summary = (done) => {
    $("games-summary").textContent = `${label}: ${count} game${count === 1 ? "" : "s"}` +
      `${done ? "" : " so far"}, ${wrong} with a wrong recorded result${errors ? `, ${errors} not read` : ""}${done ? "." : "…"}`;
  };
  summary(false);
  try {
    const response = await fetch(`/api/adjudicate?${params}`, { method: "POST", body, signal: controller.signal });
    if (!response.ok) {
      const text = await response.text();
      let message = `${response.status}`;
      try { message = JSON.parse(text).detail || message; } catch (_) { /* not JSON */ }
      throw new Error(message);
    }
    // Rows appear as the games are decided.
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let pending = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (value) pending += decoder.decode(value, { stream: true });
      const lines = pending.split("\n");
      pending = done ? "" : lines.pop();
      for (const line of lines.filter((l) => l.trim())) {
        const record = JSON.parse(line);
        if (record.error) errors++; else count++;
        if (record.wrong) wrong++;
        addGameRow(tbody, record);
      }
      summary(done);
      if (done) break;
    }
  } catch (error) {
    if (error.name === "AbortError") return;
    showError(`The games cannot be read: ${error.message}`);
  } finally {
    if (adjudication && adjudication.controller === controller) adjudication = null;
  }
}

function isUrl(text) {
  return /^https?:\/\/[^\s]+$/i.test(text || "");
}

function addGameRow(tbody, record) {
  const row = tbody.insertRow();
  const cell = (label, text) => {
    const td = row.insertCell();
    td.dataset.label = label;
    td.textContent = text === undefined || text === null ? "" : String(text);
    return td;
  };
  cell("#", record.game);
  if (record.error) {
    row.classList.add("error-row");
    const td = cell("Error", record.error);
    td.colSpan = 6;
    return;
  }
  const players = record.white || record.black ? `${record.white || "?"} – ${record.black || "?"}` : "";
  const who = cell("Players", "");
  if (isUrl(record.site)) {
    const link = document.createElement("a");
    link.href = record.site;
    link.textContent = players || record.site;
    link.rel = "noopener noreferrer";
    link.target = "_blank";
    who.appendChild(link);
  } else {
    who.textContent = players || record.id || "";
  }
  cell("Date", record.date || "");
  cell("Recorded", record.recorded);
  const correct = cell("Correct", record.correct);
  if (record.wrong) { row.classList.add("wrong"); correct.textContent += " (wrong)"; }
  cell("Rule", record.article ? `${record.rule} (Art. ${record.article})` : record.rule);
  const actions = row.insertCell();
  actions.dataset.label = "";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Details";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-label", `details of game ${record.game}`);
  actions.appendChild(button);
  let details = null;
  button.addEventListener("click", () => {
    if (details) {
      details.remove();
      details = null;
      button.setAttribute("aria-expanded", "false");
      return;
    }
    details = document.createElement("tr");
    details.className = "details";
    const td = details.insertCell();
    td.colSpan = 7;
    const text = document.createElement("p");
    text.textContent = record.explanation || "";
    td.appendChild(text);
    if (record.unreachable) {
      const note = document.createElement("p");
      note.className = "notice";
      note.textContent = `The game started from a position no game can reach: ${record.unreachable}.`;
      td.appendChild(note);
    }
    const final = document.createElement("p");
    final.className = "fen";
    final.textContent = `Final position: ${record.fen} (ply ${record.ply})`;
    td.appendChild(final);
    const open = document.createElement("button");
    open.type = "button";
    open.textContent = "Set it up on the board and analyse";
    open.addEventListener("click", () => openGame(record));
    td.appendChild(open);
    row.after(details);
    button.setAttribute("aria-expanded", "true");
  });
}

async function openGame(record) {
  if (readFen(record.fen)) return;
  $("fen").value = fenOf();
  syncControls();
  // The player who can still win on time: the recorded winner's opponent
  // lost; else the side not to move.
  let color = setup.turn === "w" ? "black" : "white";
  const result = record.correct && record.correct !== "*" ? record.correct : record.recorded;
  if (result === "1-0") color = "white";
  if (result === "0-1") color = "black";
  setWinner(color);
  view.flipped = false;
  window.scrollTo({ top: 0, behavior: "instant" });
  await analyse();
}

async function adjudicateFiles(files) {
  for (const file of files) {
    await adjudicate(file, file.name);
  }
}

function wireGames() {
  $("adjudicate").addEventListener("click", () => {
    const pgn = $("pgn").value;
    if (!pgn.trim()) { showError("Paste a PGN first, or drop a file."); return; }
    adjudicate(pgn, "Pasted games");
  });
  $("files").addEventListener("change", () => adjudicateFiles([...$("files").files]));
  const drop = $("drop");
  for (const name of ["dragenter", "dragover"]) {
    drop.addEventListener(name, (event) => { event.preventDefault(); drop.classList.add("over"); });
  }
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    const files = [...(event.dataTransfer ? event.dataTransfer.files : [])];
    if (files.length) adjudicateFiles(files);
  });
}

// ---- Wiring.

function onKey(event) {
  const tag = (event.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "textarea" || tag === "select" || event.target.id === "board" || !plies.length) return;
  const moves = { ArrowRight: ply + 1, ArrowLeft: ply - 1, Home: 0, End: plies.length };
  if (event.key in moves) {
    event.preventDefault();
    showPly(moves[event.key]);
  }
}

async function loadExamples() {
  try {
    const positions = JSON.parse(await api("/api/positions"));
    const kinds = { "--": "dead", WB: "both can mate", "W-": "only White can mate", "-B": "only Black can mate" };
    for (const p of positions) {
      const option = document.createElement("option");
      option.value = p.fen;
      option.textContent = `Position ${p.id} (${kinds[p.label] || p.label})`;
      $("examples").appendChild(option);
    }
  } catch (_) { /* the list is a convenience */ }
}

async function loadPieces() {
  const holder = document.createElement("div");
  holder.hidden = true;
  holder.innerHTML = await api("/pieces.svg"); // our own file, same origin
  document.body.prepend(holder);
}

function loadFen(text, keepWinner) {
  const error = readFen(text);
  if (error) {
    $("fen").setAttribute("aria-invalid", "true");
    $("fen-error").textContent = `This FEN cannot be read: ${error}.`;
    $("fen-error").hidden = false;
    return false;
  }
  $("fen").removeAttribute("aria-invalid");
  $("fen-error").hidden = true;
  abandon();
  if (!keepWinner) setWinner(setup.turn === "w" ? "black" : "white");
  syncControls();
  clearAnswer();
  drawBoard();
  return true;
}

document.addEventListener("DOMContentLoaded", async () => {
  await loadPieces();
  buildPalette();
  wireBoard();
  wireGames();
  $("ask").addEventListener("submit", (event) => {
    event.preventDefault();
    if (loadFen($("fen").value, true)) analyse();
  });
  $("fen").addEventListener("input", () => loadFen($("fen").value, false));
  $("fen").addEventListener("change", () => {
    if (!$("fen").hasAttribute("aria-invalid")) $("fen").value = fenOf();
  });
  for (const radio of document.querySelectorAll('input[name="turn"]')) {
    radio.addEventListener("change", () => {
      setup.turn = radio.value;
      setWinner(setup.turn === "w" ? "black" : "white");
      edited();
    });
  }
  for (const radio of document.querySelectorAll('input[name="winner"]')) {
    radio.addEventListener("change", () => {
      if (current) {
        history.replaceState(null, "", `/?${new URLSearchParams({ fen: current.fen, winner: winner() })}`);
        render();
      } else {
        drawBoard();
      }
    });
  }
  $("cancel").addEventListener("click", () => cancelAnalysis("Cancelled: the server stopped the analysis."));
  $("flip").addEventListener("click", () => { view.flipped = !view.flipped; drawBoard(); });
  $("start").addEventListener("click", () => { loadFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false); $("fen").value = fenOf(); });
  $("clear").addEventListener("click", () => { loadFen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false); $("fen").value = fenOf(); });
  $("examples").addEventListener("change", () => {
    if ($("examples").value && loadFen($("examples").value, false)) { $("fen").value = fenOf(); analyse(); }
  });
  $("first").addEventListener("click", () => showPly(0));
  $("prev").addEventListener("click", () => showPly(ply - 1));
  $("next").addEventListener("click", () => showPly(ply + 1));
  $("last").addEventListener("click", () => showPly(plies.length));
  $("copy").addEventListener("click", async () => {
    const url = `${location.origin}/?${new URLSearchParams({ fen: fenOf(), winner: winner() })}`;
    try { await navigator.clipboard.writeText(url); $("busy").textContent = "Link copied."; }
    catch (_) { $("busy").textContent = url; }
  });
  document.addEventListener("keydown", onKey);
  await loadExamples();
  const params = new URLSearchParams(location.search);
  if (params.get("fen") && loadFen(params.get("fen"), false)) {
    $("fen").value = fenOf();
    if (params.get("winner") === "white" || params.get("winner") === "black") setWinner(params.get("winner"));
    document.body.dataset.ready = "true";
    await analyse();
  } else {
    loadFen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false);
    $("fen").value = fenOf();
    document.body.dataset.ready = "true";
  }
});
