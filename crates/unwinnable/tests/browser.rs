//! The web page of `unwinnable serve` in a real browser: headless Chromium
//! (Debian's `chromium`), driven over its DevTools protocol, against the
//! built binary on 127.0.0.1:0. A FEN entered, the verdict read, the board
//! and its marks checked, a helpmate stepped through with the keyboard and
//! the buttons, a PGN's game opened, the page at a phone's width; a
//! screenshot of each state is written under `target/browser/`.
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
const WINNABLE: &str = "8/8/1p6/1B2k3/5pK1/8/8/8 b - -";

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

    /// Types `text` into the focused element.
    fn type_text(&mut self, text: &str) {
        self.call("Input.insertText", json!({ "text": text }));
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

    /// A screenshot of the element `selector` only.
    fn screenshot_of(&mut self, selector: &str, name: &str) -> PathBuf {
        let rect = self.eval(&format!(
            "(() => {{ const r = document.querySelector({selector:?}).getBoundingClientRect(); \
             return [r.x + scrollX, r.y + scrollY, r.width, r.height]; }})()"
        ));
        let clip = json!({ "x": rect[0], "y": rect[1], "width": rect[2], "height": rect[3], "scale": 1 });
        let shot = self
            .call("Page.captureScreenshot", json!({ "format": "png", "captureBeyondViewport": true, "clip": clip }));
        let png = base64::engine::general_purpose::STANDARD.decode(shot["data"].as_str().unwrap()).unwrap();
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
            "(() => {{ const p = document.querySelector('#board text.piece[data-square=\"{square}\"]'); return p ? p.dataset.piece : null; }})()"
        ))
        .as_str()
        .map(String::from)
    }
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

    let mut server = Command::new(env!("CARGO_BIN_EXE_unwinnable"));
    server.args(["serve", "--addr", "127.0.0.1:0", "--workers", "2", "--quiet"]);
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

    // 1. A shared link: Position 1, can White still mate? No: the proof is
    // drawn (the black king region, the squares no mate can happen on,
    // the locked pawns).
    let params = format!("fen={}&winner=white", unwinnable::serve::client::encode(DEAD));
    page.goto(&format!("{base}/?{params}"));
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'unwinnable'");
    assert_eq!(page.text("#verdict"), "No: White cannot checkmate, whatever both sides play.");
    assert!(page.text("#reason").contains("the game is drawn (Art. 6.9)"));
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
    assert_eq!(page.count("#board circle.safe-mark"), 14);
    assert_eq!(page.count("#board g.lock"), 14);
    assert_eq!(page.piece_on("f7").as_deref(), Some("k"));
    assert_eq!(page.piece_on("c4").as_deref(), Some("b"));
    assert_eq!(page.count("#board text.piece"), 18);
    assert!(!page.eval("document.querySelector('#legend').hidden").as_bool().unwrap());
    page.screenshot("1-unwinnable-proof");
    // The README's picture (docs/serve-page.png is a copy of it).
    page.viewport(860, 900, false);
    page.screenshot_of("#answer", "answer-panel");
    page.viewport(1100, 900, false);

    // 2. A FEN typed in: Position 3, White can mate; the helpmate stepped
    // through with the arrow keys and the buttons, the board following.
    page.eval("(() => { const f = document.querySelector('#fen'); f.value = ''; f.focus(); })()");
    page.type_text(WINNABLE);
    page.click("#analyse");
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'winnable'");
    assert_eq!(page.text("#verdict"), "Yes: White can still checkmate.");
    assert_eq!(page.eval("location.search").as_str().unwrap(), format!("?fen={}&winner=white", form(WINNABLE)));
    let plies = page.count("#moves li");
    assert!(plies > 0 && plies % 2 == 0, "Black moves first and White mates last: {plies}");
    page.wait_for("document.querySelector('#board').dataset.ply === '0'");
    assert!(page.text("#ply").starts_with("Start position"));
    assert_eq!(page.piece_on("f4").as_deref(), Some("p"));
    // Keys act when the focus is outside the text fields.
    page.eval("document.activeElement.blur()");
    page.key("ArrowRight", 39);
    page.wait_for("document.querySelector('#board').dataset.ply === '1'");
    // The first move of the helpmate, as the API gives it.
    let first: String = page
        .eval(&format!(
            "fetch('/api/analyze?fen={}&winner=white').then(r => r.text()).then(t => JSON.parse(t).helpmate[0])",
            unwinnable::serve::client::encode(WINNABLE)
        ))
        .as_str()
        .unwrap()
        .to_string();
    let (from, to) = (&first[0..2], &first[2..4]);
    page.wait_for(&format!("document.querySelector('#board rect.highlight[data-square=\"{to}\"]')"));
    assert_eq!(page.piece_on(from), None, "{first}");
    assert_eq!(page.piece_on(to).as_deref(), Some("p"), "{first}");
    page.key("ArrowRight", 39);
    page.key("ArrowRight", 39);
    page.wait_for("document.querySelector('#board').dataset.ply === '3'");
    page.key("ArrowLeft", 37);
    page.wait_for("document.querySelector('#board').dataset.ply === '2'");
    page.screenshot("2-helpmate-step-2");
    page.click("#last");
    page.wait_for(&format!("document.querySelector('#board').dataset.ply === '{plies}'"));
    assert!(page.text("#ply").ends_with('#'), "the last move mates: {}", page.text("#ply"));
    page.wait_for("document.querySelector('#board line.arrow')");
    assert_eq!(page.eval("document.querySelector('#next').disabled"), Value::Bool(true));
    page.screenshot("3-helpmate-mate");
    page.key("Home", 36);
    page.wait_for("document.querySelector('#board').dataset.ply === '0'");
    assert_eq!(page.piece_on("f4").as_deref(), Some("p"));

    // 3. A PGN: one row per game, the first opened.
    let pgn = "[Event \"Scholar\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n\n\
               [Event \"Short draw\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n";
    page.click("#pgn-box summary");
    page.eval("document.querySelector('#pgn').focus()");
    page.type_text(pgn);
    page.click("#adjudicate");
    page.wait_for("document.querySelectorAll('#games-table tbody tr').length === 2");
    let first_row: Vec<String> = serde_json::from_value(
        page.eval("[...document.querySelectorAll('#games-table tbody tr')[0].cells].map(c => c.textContent)"),
    )
    .unwrap();
    assert_eq!(&first_row[2..5], ["0-1", "1-0", "checkmate (Art. 5.1.1)"], "{first_row:?}");
    assert!(
        page.eval("document.querySelector('#games-table tbody tr').classList.contains('wrong')").as_bool().unwrap()
    );
    page.screenshot("4-pgn-games");
    page.click("#games-table tbody tr button");
    page.wait_for("document.querySelector('#fen').value.startsWith('r1bqkb1r/pppp1Qpp/')");
    page.wait_for("document.querySelector('#verdict').dataset.verdict === 'winnable'");
    assert_eq!(page.text("#verdict"), "Yes: White has already checkmated.");
    page.screenshot("5-pgn-game-opened");

    // 4. A phone's width: nothing wider than the screen.
    page.viewport(390, 844, true);
    page.goto(&format!("{base}/?{params}"));
    page.wait_for("document.querySelectorAll('#board rect.region').length > 0");
    let width = page.eval("document.documentElement.scrollWidth").as_u64().unwrap();
    assert!(width <= 390, "the page is {width} px wide on a 390 px screen");
    let board = page.eval("document.querySelector('#board svg').getBoundingClientRect().width").as_f64().unwrap();
    assert!(board >= 300.0, "the board is {board} px wide");
    page.screenshot("6-phone");
    eprintln!("screenshots in {}", shots.display());
}

/// `text` as `URLSearchParams` writes it (spaces as `+`, `/` escaped).
fn form(text: &str) -> String {
    serde_urlencoded::to_string([("", text)]).unwrap().trim_start_matches('=').to_string()
}
