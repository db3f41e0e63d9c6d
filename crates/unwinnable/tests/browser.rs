//! The web page of `unwinnable serve` in a real browser: headless Chromium
//! (Debian's `chromium`), driven over its DevTools protocol, against the
//! built binary on 127.0.0.1:0, at a desktop's width (1280x900) and a
//! phone's (390x844): a shared link's proof drawn with its marks and
//! per-square reasons; a dead position answered for both colours; a
//! position set up on the board editor by clicks and a drag, then
//! analysed, its helpmate stepped through in move numbers; the winner
//! switched while a slow analysis runs (the answer shown is always the
//! selected colour's, of the latest position); Cancel, which stops the
//! work on the server too; an undetermined answer's next step; PGN files
//! dropped onto the page, their players, dates and explanations; the games
//! as cards on a phone. A screenshot of each state is written under
//! `target/browser/`.
//!
//! Without Chromium the test says so and passes, unless
//! `UNWINNABLE_REQUIRE_BROWSER=1` (set by `.ci/run`, which installs it).
//! `CHROMIUM=/path/to/chrome` picks another binary.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

const DEAD: &str = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - -";
/// A position that runs to the server's deadline for White (see
/// `tests/serve.rs`).
const SLOW: &str = "3k1b2/2p1pBp1/KpP1P1P1/1P3B2/4B1B1/5B2/6B1/7B w - - 0 1";

/// A child process killed when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `command` and returns the first line of its standard error that
/// contains `marker`.
fn start(mut command: Command, marker: &'static str) -> (Process, String) {
    let mut child = command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut sent = false;
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if !sent && line.contains(marker) {
                let _ = sender.send(line);
                sent = true;
            }
        }
    });
    let line = receiver.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|_| panic!("no {marker:?} printed"));
    (Process(child), line)
}

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["chromium", "chromium-browser", "google-chrome"].iter().find_map(|name| {
        std::env::var_os("PATH")?.to_str()?.split(':').map(|dir| Path::new(dir).join(name)).find(|p| p.is_file())
    })
}

/// One page of the browser, over the DevTools protocol.
struct Page {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
    shots: PathBuf,
}

impl Page {
    fn open(ws_url: &str, shots: PathBuf) -> Page {
        let (socket, _) = tungstenite::connect(ws_url).expect("connect to the DevTools socket");
        let mut page = Page { socket, session: String::new(), next_id: 0, shots };
        let target = page.call_browser("Target.createTarget", json!({ "url": "about:blank" }));
        let attached =
            page.call_browser("Target.attachToTarget", json!({ "targetId": target["targetId"], "flatten": true }));
        page.session = attached["sessionId"].as_str().unwrap().to_string();
        page.call("Page.enable", json!({}));
        page.call("Runtime.enable", json!({}));
        page.viewport(1100, 900, false);
        page
    }

    fn send(&mut self, method: &str, params: Value, session: Option<String>) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = Value::String(session);
        }
        self.socket.send(Message::text(message.to_string())).unwrap();
        loop {
            let Message::Text(text) = self.socket.read().unwrap() else { continue };
            let reply: Value = serde_json::from_str(&text).unwrap();
            if reply["id"].as_u64() == Some(id) {
                if let Some(error) = reply.get("error") {
                    panic!("{method}: {error}");
                }
                return reply["result"].clone();
            }
            // Events (console messages, exceptions) are printed.
            if reply["method"] == "Runtime.exceptionThrown" {
                eprintln!("page exception: {}", reply["params"]["exceptionDetails"]);
            }
        }
    }

    fn call_browser(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, None)
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(method, params, Some(session))
    }

    fn viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile }),
        );
    }

    fn goto(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for("document.body && document.body.dataset.ready === 'true'");
    }

    /// The value of a JavaScript expression (promises awaited).
    fn eval(&mut self, expression: &str) -> Value {
        let result = self
            .call("Runtime.evaluate", json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }));
        if let Some(exception) = result.get("exceptionDetails") {
            panic!("{expression}: {exception}");
        }
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true (20 s at most).
    fn wait_for(&mut self, expression: &str) {
        let start = Instant::now();
        loop {
            if self.eval(&format!("Boolean({expression})")) == Value::Bool(true) {
                return;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {expression}");
            thread::sleep(Duration::from_millis(50));
        }
    }

    fn key(&mut self, key: &str, code: u32) {
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code }),
            );
        }
    }

    /// Clicks the middle of the element `selector` with the mouse.
    fn click(&mut self, selector: &str) {
        let rect = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); e.scrollIntoView({{block: 'center'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (x, y) = (rect[0].as_f64().unwrap(), rect[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    fn screenshot(&mut self, name: &str) -> PathBuf {
        // The whole page, not only what the window shows.
        let size = self.call("Page.getLayoutMetrics", json!({}))["cssContentSize"].clone();
        let clip = json!({ "x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1 });
        let shot = self
            .call("Page.captureScreenshot", json!({ "format": "png", "captureBeyondViewport": true, "clip": clip }));
        let png = base64::engine::general_purpose::STANDARD.decode(shot["data"].as_str().unwrap()).unwrap();
        assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "a blank screenshot? {} bytes", png.len());
        let path = self.shots.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        path
    }

    fn text(&mut self, selector: &str) -> String {
        self.eval(&format!("document.querySelector({selector:?}).textContent")).as_str().unwrap_or("").to_string()
    }

    fn count(&mut self, selector: &str) -> u64 {
        self.eval(&format!("document.querySelectorAll({selector:?}).length")).as_u64().unwrap()
    }

    /// The piece letter the board draws on `square`, if any.
    fn piece_on(&mut self, square: &str) -> Option<String> {
        self.eval(&format!(
            "(() => {{ const p = document.querySelector('#board use.piece[data-square=\"{square}\"]'); return p ? p.dataset.piece : null; }})()"
        ))
        .as_str()
        .map(String::from)
    }

    /// The middle of the element `selector` on the screen, as it is now.
    fn center(&mut self, selector: &str) -> (f64, f64) {
        let rect = self.eval(&format!(
            "(() => {{ const r = document.querySelector({selector:?}).getBoundingClientRect(); \
             return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        (rect[0].as_f64().unwrap(), rect[1].as_f64().unwrap())
    }

    fn mouse(&mut self, kind: &str, (x, y): (f64, f64), buttons: u32) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({ "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1 }),
        );
    }

    /// Clicks square `square` of the board.
    fn click_square(&mut self, square: &str) {
        self.click(&format!("#board rect[data-square=\"{square}\"]"));
    }

    /// Drags with the mouse from the element `from` to the element `to`.
    fn drag(&mut self, from: &str, to: &str) {
        self.eval("document.querySelector('#board').scrollIntoView({block: 'center'})");
        let start = self.center(from);
        let end = self.center(to);
        self.mouse("mousePressed", start, 1);
        for step in 1..=8 {
            let t = f64::from(step) / 8.0;
            self.mouse("mouseMoved", (start.0 + (end.0 - start.0) * t, start.1 + (end.1 - start.1) * t), 1);
        }
        self.mouse("mouseReleased", end, 0);
    }

    /// Drops a file `name` holding `text` onto the page's drop zone, as a
    /// file dragged from the desktop arrives (a `drop` event carrying it).
    fn drop_file(&mut self, name: &str, text: &str) {
        self.eval(&format!(
            "(() => {{ const dt = new DataTransfer(); \
             dt.items.add(new File([{text:?}], {name:?}, {{type: 'application/x-chess-pgn'}})); \
             document.querySelector('#drop').dispatchEvent(new DragEvent('drop', \
             {{dataTransfer: dt, bubbles: true, cancelable: true}})); }})()"
        ));
    }

    /// Puts `fen` into the FEN field as a paste does (one input event).
    fn paste_fen(&mut self, fen: &str) {
        self.eval(&format!(
            "(() => {{ const f = document.querySelector('#fen'); f.value = {fen:?}; \
             f.dispatchEvent(new Event('input')); }})()"
        ));
    }

    /// The FEN field's value.
    fn fen(&mut self) -> String {
        self.eval("document.querySelector('#fen').value").as_str().unwrap().to_string()
    }

    /// A viewport screenshot (what a visitor sees first).
    fn screenshot_view(&mut self, name: &str) -> PathBuf {
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let png = base64::engine::general_purpose::STANDARD.decode(shot["data"].as_str().unwrap()).unwrap();
        let path = self.shots.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        path
    }
}

/// The slow position analysed for White, the winner switched to Black at
/// once: when the answers are in, Black's is shown (never White's, which
/// arrives last), with the URL and the board's side for Black.
fn switch_winner_during_analysis(page: &mut Page, shot: &str) {
    page.paste_fen(SLOW);
    page.click("input[name=winner][value=white]");
    page.click("#analyse");
    page.wait_for("document.body.dataset.busy === 'true'");
    assert_eq!(page.eval("document.querySelector('#analyse').disabled"), Value::Bool(true), "busy: no second click");
    page.click("input[name=winner][value=black]");
    page.screenshot_view(shot);
    page.wait_for("document.body.dataset.busy === 'false'");
    assert_eq!(page.eval("document.querySelector('#verdict').dataset.winner"), "black");
    let verdict = page.text("#verdict");
    assert!(!verdict.contains("White"), "White's answer shown for Black: {verdict}");
    assert!(page.eval("location.search").as_str().unwrap().ends_with("winner=black"));
    assert_eq!(page.eval("document.querySelector('#board svg').dataset.bottom"), "black");
}

/// A value of the server's `/metrics`.
fn metric(base: &str, name: &str) -> f64 {
    let addr: SocketAddr = base.trim_start_matches("http://").parse().unwrap();
    let text = testkit::client::Client::new(addr, Duration::from_secs(10)).get("/metrics").unwrap().text();
    text.lines()
        .find(|line| line.starts_with(name) && line[name.len()..].starts_with(' '))
        .and_then(|line| line.rsplit(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

#[test]
fn the_page_in_chromium() {
    let Some(chromium) = chromium() else {
        let required = std::env::var("UNWINNABLE_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
        assert!(!required, "Chromium not found (apt-get install chromium, or set CHROMIUM)");
        eprintln!("SKIPPED: Chromium not found (apt-get install chromium, or set CHROMIUM=/path/to/chrome)");
        return;
    };
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../browser");
    std::fs::create_dir_all(&target).unwrap();
    let shots = target.canonicalize().unwrap();
    let profile = shots.join("profile");
    let _ = std::fs::remove_dir_all(&profile);

    // A deadline of 3 s: the slow position's analysis for White ends there.
    let mut server = Command::new(env!("CARGO_BIN_EXE_unwinnable"));
    server.args([
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--workers",
        "2",
        "--max-deadline-ms",
        "3000",
        "--max-nodes",
        "1000000000000",
        "--quiet",
    ]);
    let (_server, line) = start(server, "listening on");
    let addr: SocketAddr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().parse().unwrap();
    let base = format!("http://{addr}");

    let mut browser = Command::new(&chromium);
    browser.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--hide-scrollbars",
        "--remote-debugging-port=0",
        "about:blank",
    ]);
    browser.arg(format!("--user-data-dir={}", profile.display()));
    let (_browser, line) = start(browser, "DevTools listening on");
    let ws_url = line.split("DevTools listening on ").nth(1).unwrap().trim().to_string();
    let mut page = Page::open(&ws_url, shots.clone());
    page.viewport(1280, 900, false);

    // 1. A shared link: Position 1, can White still mate? No, and neither
    // can Black: a dead position, whichever colour is selected. The proof
    // is drawn (the black king's region, a mark per reason in the squares'
    // corners, the locked pawns), each square says why when clicked.
    let params = format!("fen={}&winner=white", testkit::client::encode(DEAD));
    page.goto(&format!("{base}/?{params}"));
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'unwinnable'");
    assert_eq!(page.text("#verdict"), "No: White cannot checkmate, whatever both sides play.");
    assert!(page.text("#reason").contains("the game is drawn (Art. 6.9)"));
    page.wait_for("!document.querySelector('#dead').hidden");
    assert!(page.text("#dead").starts_with("Dead position: drawn at once (Art. 5.2.2)."), "{}", page.text("#dead"));
    // The answer's certificate, accepted by the independent checker.
    assert_eq!(page.text("#checked"), "\u{2713} Checked by the independent checker");
    page.wait_for("document.querySelectorAll('#board rect.region').length > 0");
    let mut region: Vec<String> = serde_json::from_value(
        page.eval("[...document.querySelectorAll('#board rect.region')].map(r => r.dataset.square)"),
    )
    .unwrap();
    region.sort();
    // The region drawn in the static_check crate's documentation.
    let mut expected: Vec<&str> = "e6 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8".split(' ').collect();
    expected.sort();
    assert_eq!(region, expected);
    // Position 1's 14 squares are all never attacked (crates/unwinnable
    // src/serve/proof.rs tests the overlay): 14 green dots, no other mark.
    assert_eq!(page.count("#board .mark.never-attacked"), 14);
    assert_eq!(page.count("#board .mark"), 14);
    assert_eq!(page.count("#board g.lock"), 14);
    assert_eq!(page.piece_on("f7").as_deref(), Some("k"));
    assert_eq!(page.piece_on("c4").as_deref(), Some("b"));
    assert_eq!(page.count("#board use.piece"), 18);
    // Marks sit in a corner: the dot on f7 does not cover the king's middle.
    let covered = page.eval(
        "(() => { const m = document.querySelector('#board .mark[data-square=\"f7\"]').getBoundingClientRect(); \
         const s = document.querySelector('#board rect[data-square=\"f7\"]').getBoundingClientRect(); \
         const cx = s.x + s.width / 2, cy = s.y + s.height / 2; \
         return cx >= m.left && cx <= m.right && cy >= m.top && cy <= m.bottom; })()",
    );
    assert_eq!(covered, Value::Bool(false));
    page.click_square("e8");
    assert_eq!(
        page.text("#square-info"),
        "e8: empty; the black king can reach it; never attacked by White: no checkmate can happen there"
    );
    let title = page.eval("document.querySelector('#board rect[data-square=\"c6\"] title').textContent");
    assert!(title.as_str().unwrap().starts_with("c6: black pawn; the black king never reaches it"), "{title}");
    // Desktop: the board at the top, beside the answer, all above the fold.
    let layout = page.eval(
        "(() => { const b = document.querySelector('#board').getBoundingClientRect(); \
         const v = document.querySelector('#verdict').getBoundingClientRect(); \
         return [b.top, b.bottom, b.right, v.left, v.top]; })()",
    );
    let [board_top, board_bottom, board_right, verdict_left, verdict_top] =
        [0, 1, 2, 3, 4].map(|i| layout[i].as_f64().unwrap());
    assert!(board_top < 150.0 && board_bottom <= 900.0, "the board is at {board_top}..{board_bottom}");
    assert!(verdict_left >= board_right && verdict_top < 500.0, "the answer is not beside the board: {layout}");
    page.eval("window.scrollTo(0, 0)");
    page.screenshot_view("1-dead-position-desktop");
    // The README's picture (docs/serve-page.png is a copy of it).
    page.screenshot_view("readme");
    // Switched to Black: Black's answer, still a dead position.
    page.click("input[name=winner][value=black]");
    page.wait_for("document.querySelector('#verdict').dataset.winner === 'black'");
    assert_eq!(page.text("#verdict"), "No: Black cannot checkmate, whatever both sides play.");
    assert!(!page.eval("document.querySelector('#dead').hidden").as_bool().unwrap());
    assert!(page.eval("location.search").as_str().unwrap().ends_with("winner=black"));
    assert_eq!(page.eval("document.querySelector('#board svg').dataset.bottom"), "black");

    // 2. The editor: a position set up by clicks on the palette and the
    // board (Position 3 of the paper), the FEN field following; a piece
    // dragged and dragged back; then analysed.
    page.click("#clear");
    assert_eq!(page.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    for (piece, square) in [("k", "e5"), ("K", "g4"), ("p", "b6"), ("p", "f4"), ("B", "b5")] {
        page.click(&format!("#palette button[data-tool=\"{piece}\"]"));
        page.click_square(square);
    }
    page.click("input[name=turn][value=b]");
    assert_eq!(page.fen(), "8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1");
    // The winner defaults to the side not to move.
    assert_eq!(page.eval("document.querySelector('input[name=winner]:checked').value"), "white");
    page.click("#palette button[data-tool=\"move\"]");
    page.drag("#board use.piece[data-square=\"g4\"]", "#board rect[data-square=\"h3\"]");
    page.wait_for("document.querySelector('#fen').value.startsWith('8/8/1p6/1B2k3/5p2/7K/')");
    page.drag("#board use.piece[data-square=\"h3\"]", "#board rect[data-square=\"g4\"]");
    page.wait_for("document.querySelector('#fen').value === '8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1'");
    // A palette piece dragged onto the board, then off it again.
    page.drag("#palette button[data-tool=\"N\"]", "#board rect[data-square=\"a1\"]");
    page.wait_for("document.querySelector('#fen').value.endsWith('8/N7 b - - 0 1')");
    page.drag("#board use.piece[data-square=\"a1\"]", "#palette");
    page.wait_for("document.querySelector('#fen').value === '8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1'");
    // The keyboard: the board takes the focus, the cursor is read out.
    page.eval("document.querySelector('#board').focus()");
    page.key("ArrowLeft", 37);
    assert_eq!(page.text("#cursor"), "a5: empty");
    page.key("ArrowRight", 39);
    assert_eq!(page.text("#cursor"), "b5: white bishop");
    page.screenshot_view("2-editor-desktop");
    page.click("#analyse");
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'winnable'");
    assert_eq!(page.text("#verdict"), "Yes: White can still checkmate.");
    page.wait_for("document.body.dataset.busy === 'false'");
    // The helpmate in move numbers: Black moves first at move 1.
    let title = page.text("#helpmate-title");
    let plies = page.count("#moves li");
    assert!(plies > 0 && plies % 2 == 0, "Black moves first and White mates last: {plies}");
    assert!(title.starts_with(&format!("Helpmate in {} ({plies} plies)", plies / 2 + 1)), "{title}");
    page.wait_for("document.querySelector('#board').dataset.ply === '0'");
    page.eval("document.activeElement.blur()");
    page.key("ArrowRight", 39);
    page.wait_for("document.querySelector('#board').dataset.ply === '1'");
    assert!(page.text("#ply").starts_with("1…"), "{}", page.text("#ply"));
    page.key("ArrowRight", 39);
    page.wait_for("document.querySelector('#board').dataset.ply === '2'");
    assert!(page.text("#ply").starts_with("2."), "{}", page.text("#ply"));
    // The arrow is translucent and drawn under the pieces.
    let arrow = page.eval(
        "(() => { const svg = document.querySelector('#board svg'); const kids = [...svg.children]; \
         const a = svg.querySelector('line.arrow'); \
         return [getComputedStyle(a).strokeOpacity, kids.indexOf(a) < kids.indexOf(svg.querySelector('use.piece'))]; })()",
    );
    assert!(arrow[0].as_str().unwrap().parse::<f64>().unwrap() < 0.6, "{arrow}");
    assert_eq!(arrow[1], Value::Bool(true), "the arrow is under the pieces");
    page.screenshot_view("3-helpmate-step-2");
    page.click("#last");
    page.wait_for(&format!("document.querySelector('#board').dataset.ply === '{plies}'"));
    assert!(page.text("#ply").contains('#'), "the last move mates: {}", page.text("#ply"));
    // The mated king is marked.
    page.wait_for("document.querySelector('#board circle.mated')");
    let mated = page.eval("document.querySelector('#board circle.mated').dataset.square").as_str().unwrap().to_string();
    assert_eq!(page.piece_on(&mated).as_deref(), Some("k"));
    page.screenshot_view("4-helpmate-mate");

    // 2b. Chess960 in the editor: a Shredder-FEN pasted, one castling box
    // per rook beside its king on the first rank (the a1 rook's right
    // checked), toggled off and on again; the FEN follows in Shredder-FEN;
    // then analysed: O-O-O (king b1 to c1, rook a1 to d1) mates.
    page.paste_fen("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1");
    page.wait_for("document.querySelectorAll('#castling input').length === 3");
    let boxes = page.eval("[...document.querySelectorAll('#castling input')].map(b => [b.value, b.checked])");
    assert_eq!(boxes, json!([["a1", true], ["c8", false], ["e8", false]]));
    page.click("#castling input[value=a1]");
    page.wait_for("document.querySelector('#fen').value === '2rkr3/2p1p3/8/8/8/8/8/RK6 w - - 0 1'");
    page.click("#castling input[value=a1]");
    page.wait_for("document.querySelector('#fen').value === '2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1'");
    // Standard rights stay KQkq.
    page.paste_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    page.wait_for("document.querySelectorAll('#castling input:checked').length === 4");
    page.click("#castling input[value=h8]");
    page.wait_for("document.querySelector('#fen').value === 'r3k2r/8/8/8/8/8/8/R3K2R b KQq - 0 1'");
    page.paste_fen("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1");
    page.click("input[name=winner][value=white]");
    page.click("#analyse");
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'winnable'");
    assert_eq!(page.text("#verdict"), "Yes: White can still checkmate.");
    page.screenshot_view("4b-chess960");

    // 3. The winner switched while a slow analysis runs: the answer shown is
    // always the selected colour's, and the URL and the board agree.
    switch_winner_during_analysis(&mut page, "5-busy");
    // White's answer, arrived last, is White's: undetermined at the
    // deadline, with what would decide it.
    page.click("input[name=winner][value=white]");
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'undetermined'");
    assert!(page.text("#next-step").contains("unwinnable analyze --nodes"), "{}", page.text("#next-step"));
    page.screenshot_view("6-undetermined");
    // The latest request wins: a slow analysis, then another position at
    // once; only the second one's answer is shown.
    page.click("#analyse");
    page.wait_for("document.body.dataset.busy === 'true'");
    page.paste_fen(DEAD);
    page.eval("document.querySelector('#ask').requestSubmit()");
    page.wait_for("document.body.dataset.busy === 'false'");
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'unwinnable'");
    thread::sleep(Duration::from_millis(3500));
    assert_eq!(
        page.eval("document.querySelector('#verdict').dataset.verdict"),
        "unwinnable",
        "an old answer came back"
    );
    assert!(page.eval("location.search").as_str().unwrap().contains("8%2F1p3k2"));

    // 4. Cancel: the page is idle again at once, and the server stops.
    page.paste_fen(SLOW);
    page.click("input[name=winner][value=white]");
    let cancelled_before = metric(&base, "unwinnable_cancelled_total{what=\"requests\"}");
    page.click("#analyse");
    page.wait_for("document.body.dataset.busy === 'true'");
    let start = Instant::now();
    while metric(&base, "unwinnable_jobs_running") < 1.0 {
        assert!(start.elapsed() < Duration::from_secs(10), "the analysis did not start");
        thread::sleep(Duration::from_millis(10));
    }
    thread::sleep(Duration::from_millis(200));
    page.click("#cancel");
    let clicked = Instant::now();
    while metric(&base, "unwinnable_jobs_running") > 0.0 {
        assert!(clicked.elapsed() < Duration::from_secs(2), "the server still works after Cancel");
    }
    let stopped = clicked.elapsed();
    eprintln!("Cancel: the server stopped {stopped:?} after the click");
    assert_eq!(page.eval("document.body.dataset.busy"), "false");
    assert!(page.text("#busy").starts_with("Cancelled"), "{}", page.text("#busy"));
    assert_eq!(page.eval("document.querySelector('#analyse').disabled"), Value::Bool(false));
    assert!(metric(&base, "unwinnable_cancelled_total{what=\"requests\"}") >= cancelled_before + 1.0);

    // 5. PGN files dropped onto the page: one row per game with the players,
    // the date, a link to the game; its explanation on opening the row.
    let pgn = "[Event \"Scholar\"]\n[Site \"https://example.org/game/1\"]\n[Date \"2026.11.26\"]\n\
               [White \"Ann\"]\n[Black \"Bob\"]\n[Result \"0-1\"]\n\n\
               1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n\n\
               [Event \"Short draw\"]\n[White \"Cid\"]\n[Black \"Dee\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n\
               [Event \"Broken\"]\n[White \"Eve\"]\n\n1. e4 zz9 *\n";
    page.drop_file("games.pgn", pgn);
    page.wait_for("document.querySelectorAll('#games-table tbody tr').length === 3");
    page.wait_for("document.querySelector('#games-summary').textContent.startsWith('games.pgn: 2 games, 1 with')");
    let first_row: Vec<String> = serde_json::from_value(
        page.eval("[...document.querySelectorAll('#games-table tbody tr')[0].cells].map(c => c.textContent)"),
    )
    .unwrap();
    assert_eq!(
        &first_row[1..6],
        ["Ann – Bob", "2026.11.26", "0-1", "1-0 (wrong)", "checkmate (Art. 5.1.1)"],
        "{first_row:?}"
    );
    assert_eq!(page.eval("document.querySelector('#games-table tbody tr a').href"), "https://example.org/game/1");
    let error_row = page.text("#games-table tbody tr.error-row");
    assert!(error_row.contains("zz9"), "{error_row}");
    page.click("#games-table tbody tr button");
    page.wait_for("document.querySelector('#games-table tr.details')");
    assert!(page.text("#games-table tr.details").contains("checkmate"), "{}", page.text("#games-table tr.details"));
    page.screenshot("7-games-desktop");
    page.click("#games-table tr.details button");
    page.wait_for("document.querySelector('#fen').value.startsWith('r1bqkb1r/pppp1Qpp/')");
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'winnable'");
    assert_eq!(page.text("#verdict"), "Yes: White has already checkmated.");
    page.wait_for("document.querySelector('#board circle.mated[data-square=\"e8\"]')");

    // 6. A phone: nothing wider than the screen, the board first and wide,
    // the games as cards that keep every field.
    page.viewport(390, 844, true);
    page.goto(&format!("{base}/?{params}"));
    page.wait_for("document.querySelectorAll('#board rect.region').length > 0");
    let width = page.eval("document.documentElement.scrollWidth").as_u64().unwrap();
    assert!(width <= 390, "the page is {width} px wide on a 390 px screen");
    let board = page.eval("document.querySelector('#board svg').getBoundingClientRect().width").as_f64().unwrap();
    assert!(board >= 340.0, "the board is {board} px wide");
    page.screenshot_view("8-phone");
    page.screenshot("8-phone-whole");
    page.drop_file("games.pgn", pgn);
    page.wait_for("document.querySelectorAll('#games-table tbody tr').length === 3");
    let correct_shown = page.eval(
        "(() => { const c = document.querySelector('#games-table tbody tr td[data-label=\"Correct\"]'); \
         const r = c.getBoundingClientRect(); return r.width > 0 && r.right <= 390 && getComputedStyle(c).display !== 'none'; })()",
    );
    assert_eq!(correct_shown, Value::Bool(true), "the Correct field on a phone");
    let width = page.eval("document.documentElement.scrollWidth").as_u64().unwrap();
    assert!(width <= 390, "with the games the page is {width} px wide");
    page.eval("document.querySelector('#games').scrollIntoView()");
    page.screenshot_view("9-phone-games");
    // The editor, the winner switched during an analysis, and Cancel, at a
    // phone's width too.
    page.click("#clear");
    page.click("#palette button[data-tool=\"Q\"]");
    page.click_square("d1");
    assert_eq!(page.fen(), "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    page.click("#analyse");
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'unwinnable'");
    assert_eq!(page.text("#verdict"), "No: Black cannot checkmate, whatever both sides play.");
    page.click("input[name=winner][value=white]");
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'winnable'");
    assert!(page.eval("document.querySelector('#dead').hidden").as_bool().unwrap(), "White can mate: not dead");
    let answer_top = page.eval("document.querySelector('#answer').getBoundingClientRect().top").as_f64().unwrap();
    let form_top = page.eval("document.querySelector('#ask').getBoundingClientRect().top").as_f64().unwrap();
    assert!(answer_top < form_top, "on a phone the answer comes right under the board");
    page.eval("window.scrollTo(0, 0)");
    page.screenshot_view("10-phone-editor-answer");
    switch_winner_during_analysis(&mut page, "11-phone-busy");
    page.click("#analyse");
    page.wait_for("document.body.dataset.busy === 'true'");
    page.click("#cancel");
    assert_eq!(page.eval("document.body.dataset.busy"), "false");
    let clicked = Instant::now();
    while metric(&base, "unwinnable_jobs_running") > 0.0 {
        assert!(clicked.elapsed() < Duration::from_secs(2), "the server still works after Cancel on a phone");
    }
    eprintln!("screenshots in {}", shots.display());
}
