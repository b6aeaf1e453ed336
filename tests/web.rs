//! The web page's server, through the binary: `jewelbot serve` and `jewelbot run --headless
//! --serve`, spoken to over HTTP and WebSocket as a browser would (and as a browser must not:
//! foreign hosts and origins, wrong tokens, malformed messages, too many viewers).
#![cfg(target_os = "linux")]

mod common;

use jewelbot_web::picture::Decoder;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

/// Longer than anything here takes.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// A running `jewelbot` with a server, and where its page is.
struct Served {
    child: Child,
    /// `127.0.0.1:PORT`.
    host: String,
    token: Option<String>,
    stderr: std::sync::mpsc::Receiver<String>,
}

impl Served {
    /// Starts `jewelbot ARGS` and waits for the URL it prints.
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jewelbot"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let pipe = child.stderr.take().expect("stderr");
        let (lines, stderr) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        // Held at once, so a failure below still ends the child (`Drop`).
        let mut served = Self {
            child,
            host: String::new(),
            token: None,
            stderr,
        };
        let started = Instant::now();
        loop {
            let line = served
                .stderr
                .recv_timeout(TIME_LIMIT.saturating_sub(started.elapsed()))
                .expect("the command prints its URL");
            if let Some(at) = line.find("http://") {
                let url = line[at..].split_whitespace().next().unwrap_or("");
                let rest = url.trim_start_matches("http://");
                let (host, query) = rest.split_once('/').unwrap_or((rest, ""));
                served.token = query
                    .strip_prefix("?token=")
                    .map(|t| t.trim_end_matches([')', '.']).to_owned());
                host.clone_into(&mut served.host);
                return served;
            }
        }
    }

    fn port(&self) -> u16 {
        self.host
            .rsplit_once(':')
            .and_then(|(_, p)| p.parse().ok())
            .expect("a port")
    }

    /// One HTTP request as raw text; the whole response.
    fn http(&self, request: &str) -> String {
        let mut stream = TcpStream::connect(&self.host).expect("connects");
        stream.set_read_timeout(Some(TIME_LIMIT)).expect("timeout");
        stream.write_all(request.as_bytes()).expect("sends");
        let mut response = String::new();
        let _ = stream.read_to_string(&mut response);
        response
    }

    fn get(&self, path: &str, host: &str) -> String {
        self.http(&format!(
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        ))
    }

    /// A WebSocket as a page of `origin` opens it, with `cookie`.
    fn socket(
        &self,
        origin: Option<&str>,
        cookie: Option<&str>,
    ) -> Result<WebSocket<TcpStream>, tungstenite::Error> {
        let mut request = format!("ws://{}/ws", self.host)
            .into_client_request()
            .expect("a request");
        if let Some(origin) = origin {
            request
                .headers_mut()
                .insert("Origin", origin.parse().expect("a header"));
        }
        if let Some(cookie) = cookie {
            request
                .headers_mut()
                .insert("Cookie", cookie.parse().expect("a header"));
        }
        let stream = TcpStream::connect(&self.host).expect("connects");
        stream.set_read_timeout(Some(TIME_LIMIT)).expect("timeout");
        tungstenite::client(request, stream)
            .map(|(socket, _)| socket)
            .map_err(|e| match e {
                tungstenite::HandshakeError::Failure(e) => e,
                tungstenite::HandshakeError::Interrupted(_) => tungstenite::Error::ConnectionClosed,
            })
    }

    /// The cookie a right token leaves.
    fn cookie(&self) -> String {
        let token = self.token.as_deref().expect("a token");
        let response = self.get(&format!("/?token={token}"), &self.host);
        assert!(response.starts_with("HTTP/1.1 303"), "{response}");
        let cookie = response
            .lines()
            .find_map(|l| l.strip_prefix("set-cookie: "))
            .expect("a cookie");
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
        cookie.split(';').next().expect("name=value").to_owned()
    }

    fn interrupt(&self) {
        let sent = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
    }

    fn wait(&mut self) -> i32 {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting") {
                return status.code().unwrap_or(-1);
            }
            assert!(started.elapsed() < TIME_LIMIT, "the command did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn rest_of_stderr(&self) -> String {
        self.stderr.try_iter().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The next text message, as JSON.
fn next_json(socket: &mut WebSocket<TcpStream>, kind: &str) -> serde_json::Value {
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < TIME_LIMIT, "no {kind} message came");
        if let Message::Text(text) = socket.read().expect("a message") {
            let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            if value["type"] == kind {
                return value;
            }
        }
    }
}

/// Reads pictures into `decoder` until `n` have come.
fn pictures(socket: &mut WebSocket<TcpStream>, decoder: &mut Decoder, n: usize) {
    let mut seen = 0;
    while seen < n {
        if let Message::Binary(data) = socket.read().expect("a message") {
            decoder.apply(&data).expect("a picture that reads");
            seen += 1;
        }
    }
}

fn serve(extra: &[&str]) -> Served {
    let mut args = vec!["serve", "--port", "0"];
    args.extend_from_slice(extra);
    Served::start(&args)
}

#[test]
fn the_page_is_served_whole_and_kept_to_itself() {
    let served = serve(&[]);
    let page = served.get("/", &served.host);
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<title>jewelbot</title>"));
    assert!(page.contains("content-security-policy: default-src 'none'"));
    assert!(page.contains("referrer-policy: no-referrer"));
    for (path, kind) in [("/app.js", "text/javascript"), ("/style.css", "text/css")] {
        let file = served.get(path, &served.host);
        assert!(file.starts_with("HTTP/1.1 200"), "{path}: {file}");
        assert!(file.contains(&format!("content-type: {kind}")), "{path}");
    }
    // Nothing else is served: no other file, no other method, no other site's name.
    assert!(served
        .get("/../Cargo.toml", &served.host)
        .starts_with("HTTP/1.1 404"));
    assert!(served
        .get("/etc/passwd", &served.host)
        .starts_with("HTTP/1.1 404"));
    let post = served.http(&format!(
        "POST / HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        served.host
    ));
    assert!(post.starts_with("HTTP/1.1 405"), "{post}");
    let rebound = served.get("/", &format!("evil.example:{}", served.port()));
    assert!(rebound.starts_with("HTTP/1.1 421"), "{rebound}");
    let garbage = served.http("NOT HTTP AT ALL\r\n\r\n");
    assert!(garbage.starts_with("HTTP/1.1 400"), "{garbage}");
    assert!(served
        .get("/", &format!("localhost:{}", served.port()))
        .starts_with("HTTP/1.1 200"));
}

#[test]
fn only_the_token_gives_the_controls() {
    let served = serve(&[]);
    let wrong = served.get("/?token=0123456789abcdef0123456789abcdef", &served.host);
    assert!(wrong.starts_with("HTTP/1.1 403"), "{wrong}");
    let origin = format!("http://{}", served.host);
    // A foreign page cannot even watch.
    let foreign = served.socket(Some("http://evil.example"), None);
    assert!(
        matches!(&foreign, Err(tungstenite::Error::Http(r)) if r.status() == 403),
        "{foreign:?}"
    );
    // Without the token: watching, and every request refused with the reason.
    let mut viewer = served.socket(Some(&origin), None).expect("a viewer");
    let hello = next_json(&mut viewer, "hello");
    assert_eq!(hello["controls"], false);
    assert_eq!(hello["mode"], "serve");
    viewer
        .send(Message::text(r#"{"type":"action","action":"pause"}"#))
        .expect("sent");
    let refused = next_json(&mut viewer, "error");
    assert!(refused["error"]
        .as_str()
        .unwrap()
        .contains("holding the controls"));
    // A forged cookie is no token.
    let mut forged = served
        .socket(
            Some(&origin),
            Some("jewelbot_token=00000000000000000000000000000000"),
        )
        .expect("a viewer");
    assert_eq!(next_json(&mut forged, "hello")["controls"], false);
    // With it: the controls.
    let mut holder = served
        .socket(Some(&origin), Some(&served.cookie()))
        .expect("the holder");
    assert_eq!(next_json(&mut holder, "hello")["controls"], true);
}

#[test]
fn open_controls_are_for_loopback_only() {
    let (status, _, stderr) = common::jewelbot(&[
        "serve",
        "--bind",
        "0.0.0.0",
        "--port",
        "0",
        "--open-controls",
    ]);
    assert_eq!(status, 1);
    assert!(stderr.contains("only on a loopback address"), "{stderr}");
    let served = serve(&["--open-controls"]);
    let mut viewer = served.socket(None, None).expect("a viewer");
    assert_eq!(next_json(&mut viewer, "hello")["controls"], true);
}

#[test]
fn pictures_come_as_changed_rows_and_the_views_count_columns() {
    let served = serve(&[]);
    let mut viewer = served.socket(None, None).expect("a viewer");
    let hello = next_json(&mut viewer, "hello");
    assert_eq!(
        (hello["width"].as_u64(), hello["height"].as_u64()),
        (Some(256), Some(240))
    );
    assert_eq!(hello["sound"], false);
    let mut decoder = Decoder::default();
    pictures(&mut viewer, &mut decoder, 1);
    let (first_frame, first) = (decoder.frame, decoder.rgba());
    // A picture is mostly black and a few colours, as the NES draws it.
    assert!(
        decoder.palette.len() <= 64,
        "{} colours",
        decoder.palette.len()
    );
    // The AI starts the game and plays: the picture changes, and the columns count up.
    let columns = |view: &serde_json::Value| {
        view["stories"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|story| story[1]["figures"].as_array().cloned().unwrap_or_default())
            .find(|f| f["label"] == "columns")
            .and_then(|f| f["value"].as_str().map(|v| v.replace(',', "")))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let started = Instant::now();
    let (mut changed, mut counted) = (false, None::<u64>);
    while !(changed && counted.is_some_and(|n| n >= 2)) {
        assert!(
            started.elapsed() < TIME_LIMIT,
            "changed {changed}, columns {counted:?}"
        );
        match viewer.read().expect("a message") {
            Message::Binary(data) => {
                decoder.apply(&data).expect("reads");
                changed |= decoder.frame > first_frame && decoder.rgba() != first;
            }
            Message::Text(text) => {
                let view: serde_json::Value = serde_json::from_str(&text).expect("JSON");
                if view["type"] == "view" {
                    assert_eq!(view["ram"].as_str().map(str::len), Some(4096));
                    counted = columns(&view).or(counted);
                }
            }
            _ => {}
        }
    }
}

#[test]
fn the_controls_drive_the_game() {
    let served = serve(&[]);
    let mut holder = served
        .socket(None, Some(&served.cookie()))
        .expect("the holder");
    next_json(&mut holder, "hello");
    let send = |socket: &mut WebSocket<TcpStream>, text: &str| {
        socket.send(Message::text(text.to_owned())).expect("sent");
    };
    let view_where = |socket: &mut WebSocket<TcpStream>,
                      holds: &dyn Fn(&serde_json::Value) -> bool| {
        let started = Instant::now();
        loop {
            assert!(started.elapsed() < TIME_LIMIT, "the view never showed it");
            let view = next_json(socket, "view");
            if holds(&view) {
                return view;
            }
        }
    };
    send(
        &mut holder,
        r#"{"type":"option","name":"mode","value":"fast"}"#,
    );
    view_where(&mut holder, &|v| {
        v["options"].as_array().is_some_and(|o| {
            o.iter()
                .any(|o| o["name"] == "mode" && o["value"] == "fast")
        })
    });
    send(&mut holder, r#"{"type":"action","action":"pause"}"#);
    let paused = view_where(&mut holder, &|v| v["console"]["paused"] == true);
    assert!(paused["bar"].as_str().unwrap().contains("paused"));
    let frame = paused["frame"].as_u64().unwrap();
    send(&mut holder, r#"{"type":"action","action":"frame_advance"}"#);
    view_where(&mut holder, &|v| v["frame"].as_u64() == Some(frame + 1));
    send(&mut holder, r#"{"type":"poke","address":1792,"value":171}"#);
    view_where(&mut holder, &|v| {
        &v["ram"].as_str().unwrap()[2 * 1792..2 * 1792 + 2] == "ab"
    });
    send(&mut holder, r#"{"type":"freeze","address":1792}"#);
    view_where(&mut holder, &|v| {
        v["frozen"] == serde_json::json!([[1792, 171]])
    });
    send(&mut holder, r#"{"type":"key","code":"Space"}"#);
    view_where(&mut holder, &|v| v["console"]["ai"] == false);
}

#[test]
fn malformed_messages_are_refused_and_the_socket_goes_on() {
    let served = serve(&["--open-controls"]);
    let mut viewer = served.socket(None, None).expect("a viewer");
    next_json(&mut viewer, "hello");
    for bad in [
        "{",
        "[1,2]",
        r#"{"type":"launch_missiles"}"#,
        r#"{"type":"poke","address":4096,"value":1}"#,
        r#"{"type":"poke","address":1,"value":256}"#,
        r#"{"type":"action","action":"quit"}"#,
        r#"{"type":"speed","speed":"11x"}"#,
    ] {
        viewer.send(Message::text(bad)).expect("sent");
        let answer = next_json(&mut viewer, "error");
        assert!(!answer["error"].as_str().unwrap_or("").is_empty(), "{bad}");
    }
    viewer.send(Message::binary(vec![1, 2, 3])).expect("sent");
    assert!(next_json(&mut viewer, "error")["error"]
        .as_str()
        .unwrap()
        .contains("JSON text"));
    // Still watching.
    next_json(&mut viewer, "view");
    // A message past the limit ends that viewer only.
    let long = format!(
        r#"{{"type":"option","name":"{}","value":"x"}}"#,
        "m".repeat(10_000)
    );
    let _ = viewer.send(Message::text(long));
    let ended = (0..1000).any(|_| viewer.read().is_err());
    assert!(ended, "the oversized message's socket goes on");
    let mut another = served.socket(None, None).expect("another viewer");
    next_json(&mut another, "view");
}

#[test]
fn viewers_past_the_limit_are_told_so() {
    let served = serve(&["--max-viewers", "2"]);
    let _a = served.socket(None, None).expect("first");
    let _b = served.socket(None, None).expect("second");
    match served.socket(None, None) {
        Err(tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 503);
            let body = String::from_utf8_lossy(response.body().as_deref().unwrap_or(&[]));
            assert!(body.contains("--max-viewers"), "{body}");
        }
        other => panic!("a third viewer: {other:?}"),
    }
}

#[test]
fn ctrl_c_closes_the_sockets_and_writes_the_outputs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let movie = dir.path().join("served.fm2");
    let mut served = serve(&["--record-movie", common::arg(&movie)]);
    let mut viewer = served.socket(None, None).expect("a viewer");
    while next_json(&mut viewer, "view")["frame"]
        .as_u64()
        .unwrap_or(0)
        < 60
    {}
    served.interrupt();
    let closed = (0..10_000).any(|_| match viewer.read() {
        Ok(Message::Close(_)) | Err(_) => true,
        Ok(_) => false,
    });
    assert!(closed, "the socket stayed open");
    assert_eq!(served.wait(), 130);
    let text = std::fs::read_to_string(&movie).expect("the movie is written");
    assert!(
        text.lines().filter(|l| l.starts_with('|')).count() > 10,
        "{}",
        served.rest_of_stderr()
    );
}

/// The game of a headless run, whatever watches it: its movie and its figures.
fn headless_game(serve: bool, dir: &std::path::Path) -> (String, serde_json::Value, usize) {
    let movie = dir.join(format!("run-{serve}.fm2"));
    let mut args = vec![
        "run",
        "--headless",
        "--mode",
        "fast",
        "--frames",
        "3000",
        "--json",
        "--record-movie",
        common::arg(&movie),
    ];
    if serve {
        args.extend(["--serve", "0"]);
    }
    let mut served_pictures = 0;
    let stdout = if serve {
        let mut served = Served::start(&args);
        let mut viewer = served.socket(None, None).expect("a viewer");
        let hello = next_json(&mut viewer, "hello");
        assert_eq!(
            (hello["mode"].as_str(), hello["controls"].as_bool()),
            (Some("watch"), Some(false))
        );
        // A watcher that tries to press is refused; the run goes on.
        viewer
            .send(Message::text(r#"{"type":"action","action":"pause"}"#))
            .expect("sent");
        let mut decoder = Decoder::default();
        loop {
            match viewer.read() {
                Ok(Message::Binary(data)) => {
                    decoder.apply(&data).expect("reads");
                    served_pictures += 1;
                }
                Ok(Message::Close(_)) | Err(_) => break,
                Ok(_) => {}
            }
        }
        assert_eq!(served.wait(), 0);
        let mut out = String::new();
        served
            .child
            .stdout
            .take()
            .expect("stdout")
            .read_to_string(&mut out)
            .expect("reads");
        out
    } else {
        let (status, out, err) = common::jewelbot(&args);
        assert_eq!(status, 0, "{err}");
        out
    };
    let summary: serde_json::Value = serde_json::from_str(&stdout).expect("the JSON summary");
    // The frames' buttons (the header's guid is new with every recording).
    let movie = std::fs::read_to_string(&movie)
        .expect("the movie")
        .lines()
        .filter(|l| l.starts_with('|'))
        .collect::<Vec<_>>()
        .join("\n");
    (movie, summary, served_pictures)
}

#[test]
fn a_watched_headless_run_plays_the_game_it_plays_unwatched() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (movie, summary, _) = headless_game(false, dir.path());
    let (watched_movie, watched, pictures) = headless_game(true, dir.path());
    assert!(pictures > 0, "the viewer saw no picture");
    let differs = movie
        .lines()
        .zip(watched_movie.lines())
        .position(|(a, b)| a != b);
    assert_eq!(differs, None, "the movies differ from this frame");
    assert_eq!(watched_movie.lines().count(), movie.lines().count());
    for key in [
        "last_frame",
        "columns_placed",
        "jewels_total",
        "score_total",
        "game_overs",
    ] {
        assert_eq!(watched[key], summary[key], "{key}");
    }
    assert!(
        summary["columns_placed"].as_u64().unwrap_or(0) > 20,
        "{summary}"
    );
}

#[test]
fn a_viewer_that_reads_nothing_holds_up_no_one() {
    let served = serve(&[]);
    // This one never reads what it is sent: its socket fills, and the server's sends to it
    // wait (then give up), while the game and the others go on.
    let _stuck = served.socket(None, None).expect("a stuck viewer");
    let mut watcher = served.socket(None, None).expect("a viewer");
    next_json(&mut watcher, "hello");
    let started = Instant::now();
    let mut decoder = Decoder::default();
    let (mut pictures_seen, mut first, mut last) = (0, None, 0);
    while started.elapsed() < Duration::from_secs(6) {
        match watcher.read().expect("a message") {
            Message::Binary(data) => {
                decoder.apply(&data).expect("reads");
                pictures_seen += 1;
            }
            Message::Text(text) => {
                let view: serde_json::Value = serde_json::from_str(&text).expect("JSON");
                if let Some(frame) = view["frame"].as_u64() {
                    first.get_or_insert(frame);
                    last = frame;
                }
            }
            _ => {}
        }
    }
    let first = first.expect("views came");
    // Six seconds of real time are some 360 frames, every one of them a picture.
    assert!(last - first >= 300, "{first} to {last}");
    assert!(pictures_seen >= 300, "{pictures_seen} pictures");
}
