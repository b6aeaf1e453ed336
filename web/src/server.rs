//! The HTTP server: the page's files (built into the binary), and a WebSocket a viewer that
//! sends its pictures, views and answers and takes its requests. It runs on a thread of its
//! own with a single-threaded runtime, so however many watch, the game keeps its core.

use crate::access::{self, Hosts};
use crate::hub::{Command, Hub};
use crate::picture::{self, Encoder, IndexedPicture, Indexer};
use crate::protocol::{Answer, BadRequest, Request, MAX_REQUEST_BYTES};
use axum::body::{Body, Bytes};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, Request as HttpRequest, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::watch;

/// The page's files.
const INDEX_HTML: &str = include_str!("../page/index.html");
const APP_JS: &str = include_str!("../page/app.js");
const STYLE_CSS: &str = include_str!("../page/style.css");

/// A viewer whose socket takes no message for this long is let go.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a stopping server waits for its viewers to be told.
const STOP_WAIT: Duration = Duration::from_secs(3);
/// Sent to pages as the policy for what they may load: nothing from other sites.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
    style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; \
    form-action 'none'; frame-ancestors 'none'";

/// How the server is set up.
#[derive(Debug, Clone)]
pub struct Config {
    pub address: SocketAddr,
    /// Any viewer on a loopback address holds the controls, without the token.
    pub open_controls: bool,
    /// The most viewers at once.
    pub max_viewers: usize,
    /// Host names requests may give besides `localhost` and IP addresses.
    pub allowed_hosts: Vec<String>,
    /// No viewer may press anything (a headless run is watched only).
    pub watch_only: bool,
}

/// The default number of viewers at once.
pub const DEFAULT_MAX_VIEWERS: u16 = 32;

/// A running server.
pub struct Server {
    address: SocketAddr,
    token: Option<String>,
    hub: Arc<Hub>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    hub: Arc<Hub>,
    hosts: Hosts,
    /// The token that gives the controls (`None`: nobody holds them).
    token: Option<String>,
    open_controls: bool,
    max_viewers: usize,
    pictures: watch::Receiver<Option<Arc<SharedPicture>>>,
    next_viewer: AtomicU64,
}

/// A picture indexed once for every viewer, with the messages made from it: viewers who had
/// the same picture before are sent the same bytes, made once.
struct SharedPicture {
    picture: Arc<IndexedPicture>,
    /// (the picture the message starts from, the message), newest last.
    made: std::sync::Mutex<Vec<(Option<u64>, Bytes)>>,
}

/// Messages kept a picture: viewers who keep up all start from the same one.
const MESSAGES_KEPT: usize = 4;

impl SharedPicture {
    fn new(picture: IndexedPicture) -> Self {
        Self {
            picture: Arc::new(picture),
            made: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// The message that brings the viewer of `encoder` to this picture.
    fn message_from(&self, encoder: &mut Encoder) -> Bytes {
        let from = encoder.last().map(|last| last.number);
        let mut made = self
            .made
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let message = if let Some((_, message)) = made.iter().find(|(start, _)| *start == from) {
            message.clone()
        } else {
            let last = encoder.last().map(|l| &**l);
            let message = Bytes::from(picture::delta(last, &self.picture));
            if made.len() == MESSAGES_KEPT {
                made.remove(0);
            }
            made.push((from, message.clone()));
            message
        };
        encoder.sent(&self.picture);
        message
    }
}

impl Server {
    /// Binds the address (refused at once when it cannot be) and serves from a thread of its
    /// own until the game ends ([`Hub::close`]) or [`Server::stop`].
    pub fn start(config: &Config, hub: Arc<Hub>) -> anyhow::Result<Self> {
        anyhow::ensure!(
            !config.open_controls || config.address.ip().is_loopback(),
            "--open-controls gives the controls to everyone who reaches the page: it is \
             allowed only on a loopback address (127.0.0.1 or ::1), not {}",
            config.address.ip()
        );
        anyhow::ensure!(config.max_viewers >= 1, "--max-viewers must be at least 1");
        let listener = TcpListener::bind(config.address)
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.address))?;
        listener.set_nonblocking(true)?;
        let address = listener.local_addr()?;
        let token = if config.watch_only {
            None
        } else {
            Some(access::new_token()?)
        };
        let (pictures_in, pictures) = watch::channel(None);
        let shared = Arc::new(Shared {
            hub: Arc::clone(&hub),
            hosts: Hosts {
                port: address.port(),
                allowed: config
                    .allowed_hosts
                    .iter()
                    .map(|h| h.to_ascii_lowercase())
                    .collect(),
            },
            token: token.clone(),
            open_controls: config.open_controls && !config.watch_only,
            max_viewers: config.max_viewers,
            pictures,
            next_viewer: AtomicU64::new(1),
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let thread = std::thread::Builder::new()
            .name("web".into())
            .spawn(move || runtime.block_on(serve(listener, shared, pictures_in)))?;
        Ok(Self {
            address,
            token,
            hub,
            thread: Some(thread),
        })
    }

    /// The address it listens on (the port chosen, for port 0).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The page's address to open: on this machine when listening on every interface, with
    /// the token when there is one.
    pub fn url(&self) -> String {
        let ip = match self.address.ip() {
            ip if ip.is_unspecified() && ip.is_ipv4() => "127.0.0.1".parse().unwrap_or(ip),
            ip if ip.is_unspecified() => "::1".parse().unwrap_or(ip),
            ip => ip,
        };
        let base = format!("http://{}/", SocketAddr::new(ip, self.address.port()));
        match &self.token {
            Some(token) => format!("{base}?token={token}"),
            None => base,
        }
    }

    /// Closes every viewer's socket and stops serving.
    pub fn stop(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        self.hub.close();
        if let Some(thread) = self.thread.take() {
            let deadline = std::time::Instant::now() + STOP_WAIT;
            while !thread.is_finished() && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            if thread.is_finished() {
                let _ = thread.join();
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shut();
    }
}

async fn serve(
    listener: TcpListener,
    shared: Arc<Shared>,
    pictures: watch::Sender<Option<Arc<SharedPicture>>>,
) {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("error: the web server cannot listen: {error}");
            return;
        }
    };
    tokio::spawn(index_pictures(Arc::clone(&shared.hub), pictures));
    let stopped = ended(shared.hub.closing());
    let app = router(shared);
    if let Err(error) = axum::serve(listener, app)
        .with_graceful_shutdown(stopped)
        .await
    {
        eprintln!("error: the web server stopped: {error}");
    }
}

/// Indexes each picture the game publishes once, for every viewer.
async fn index_pictures(hub: Arc<Hub>, out: watch::Sender<Option<Arc<SharedPicture>>>) {
    let mut raw = hub.pictures();
    let mut indexer = Indexer::default();
    while raw.changed().await.is_ok() {
        let picture = raw.borrow_and_update().clone();
        if let Some(picture) = picture {
            out.send_replace(Some(Arc::new(SharedPicture::new(indexer.index(&picture)))));
        }
    }
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(page))
        .route(
            "/app.js",
            get(|| async { asset(APP_JS, "text/javascript") }),
        )
        .route("/style.css", get(|| async { asset(STYLE_CSS, "text/css") }))
        .route("/ws", get(socket))
        .fallback(|| async { refuse(StatusCode::NOT_FOUND, "no such page") })
        .layer(middleware::from_fn_with_state(
            Arc::clone(&shared),
            check_host,
        ))
        .with_state(shared)
}

fn refuse(status: StatusCode, why: &str) -> Response {
    (status, format!("{why}\n")).into_response()
}

fn asset(text: &'static str, content_type: &'static str) -> Response {
    let mut response = text.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// Every request must name this server as its `Host`; every answer carries the headers that
/// keep the page to itself.
async fn check_host(
    State(shared): State<Arc<Shared>>,
    request: HttpRequest,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let mut response = if shared.hosts.accepts(host) {
        next.run(request).await
    } else {
        refuse(
            StatusCode::MISDIRECTED_REQUEST,
            "this server answers to localhost, IP addresses and the names given with --allow-host",
        )
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The page. With `?token=`, the right token is kept in a cookie and the address cleaned of
/// it; a wrong one is refused.
async fn page(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let Some(given) = query.get("token") else {
        return asset(INDEX_HTML, "text/html; charset=utf-8");
    };
    match &shared.token {
        Some(token) if access::token_matches(token, given) => {
            let cookie = format!(
                "{}={token}; Path=/; HttpOnly; SameSite=Strict",
                access::COOKIE
            );
            let mut response = Response::new(Body::empty());
            *response.status_mut() = StatusCode::SEE_OTHER;
            let headers = response.headers_mut();
            headers.insert(header::LOCATION, HeaderValue::from_static("/"));
            if let Ok(cookie) = HeaderValue::from_str(&cookie) {
                headers.insert(header::SET_COOKIE, cookie);
            }
            response
        }
        Some(_) => refuse(StatusCode::FORBIDDEN, "wrong token"),
        None => refuse(
            StatusCode::FORBIDDEN,
            "this game is watched only: no token gives its controls",
        ),
    }
}

/// Opens a viewer's WebSocket: from this server's own page (or a client that is no
/// browser), while there is room.
async fn socket(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let text = |name| {
        headers
            .get(name)
            .and_then(|h: &HeaderValue| h.to_str().ok())
    };
    let host = text(header::HOST).unwrap_or("");
    if let Some(origin) = headers.get(header::ORIGIN) {
        let same = origin
            .to_str()
            .is_ok_and(|origin| shared.hosts.same_origin(origin, host));
        if !same {
            return refuse(
                StatusCode::FORBIDDEN,
                "a page of another site cannot open this game's socket",
            );
        }
    }
    let token = text(header::COOKIE).and_then(access::token_in_cookies);
    let holds_token = matches!(
        (&shared.token, token),
        (Some(token), Some(given)) if access::token_matches(token, given)
    );
    let loopback = access::split_host(host)
        .and_then(|(name, _)| name.parse::<std::net::IpAddr>().ok())
        .is_some_and(|ip| ip.is_loopback())
        || access::split_host(host).is_some_and(|(name, _)| name.eq_ignore_ascii_case("localhost"));
    let controls = holds_token || (shared.open_controls && loopback);
    if !shared.hub.join(shared.max_viewers) {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!(
                "{} viewers are watching already, the most this server takes (--max-viewers)",
                shared.max_viewers
            ),
        );
    }
    let viewer = shared.next_viewer.fetch_add(1, Ordering::Relaxed);
    upgrade
        .max_message_size(MAX_REQUEST_BYTES)
        .max_frame_size(MAX_REQUEST_BYTES)
        .on_failed_upgrade({
            let hub = Arc::clone(&shared.hub);
            move |_| hub.leave()
        })
        .on_upgrade(move |socket| watch_game(socket, shared, viewer, controls))
}

/// Counts a viewer out, and lets go of its buttons, however its socket ends.
struct Leaving {
    hub: Arc<Hub>,
    viewer: u64,
}

impl Drop for Leaving {
    fn drop(&mut self) {
        self.hub.release(self.viewer);
        self.hub.leave();
    }
}

/// One viewer's socket: its hello, then pictures as it can take them, views, and answers to
/// its requests, until it goes or the game ends.
async fn watch_game(socket: WebSocket, shared: Arc<Shared>, viewer: u64, controls: bool) {
    let hub = Arc::clone(&shared.hub);
    let _leaving = Leaving {
        hub: Arc::clone(&hub),
        viewer,
    };
    let (mut sink, mut stream) = socket.split();
    let mut hello = (*hub.hello()).clone();
    hello["controls"] = serde_json::Value::Bool(controls);
    if !deliver(&mut sink, Message::Text(hello.to_string().into())).await {
        return;
    }
    let mut pictures = shared.pictures.clone();
    pictures.mark_changed();
    let mut views = hub.views();
    views.mark_changed();
    let closing = ended(hub.closing());
    tokio::pin!(closing);
    let mut encoder = Encoder::default();
    hub.want_picture();
    loop {
        tokio::select! {
            changed = pictures.changed() => {
                if changed.is_err() {
                    break;
                }
                let picture = pictures.borrow_and_update().clone();
                if let Some(picture) = picture {
                    let message = picture.message_from(&mut encoder);
                    if !deliver(&mut sink, Message::Binary(message)).await {
                        break;
                    }
                }
                hub.want_picture();
            }
            changed = views.changed() => {
                if changed.is_err() {
                    break;
                }
                let view = views.borrow_and_update().clone();
                if !view.is_empty() && !deliver(&mut sink, Message::Text(view.as_ref().into())).await {
                    break;
                }
            }
            message = stream.next() => {
                let answer = match message {
                    None | Some(Err(_) | Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => take_request(&hub, viewer, controls, &text),
                    Some(Ok(Message::Binary(_))) => Some(Answer::error(BadRequest::Binary)),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                };
                if let Some(answer) = answer {
                    let text = serde_json::to_string(&answer).unwrap_or_default();
                    if !deliver(&mut sink, Message::Text(text.into())).await {
                        break;
                    }
                }
            }
            () = &mut closing => {
                let _ = deliver(&mut sink, Message::Close(None)).await;
                break;
            }
        }
    }
}

/// Resolves once the game has ended.
async fn ended(mut closing: watch::Receiver<bool>) {
    let _ = closing.wait_for(|closing| *closing).await;
}

/// Sends one message, giving up on a viewer that takes nothing for [`SEND_TIMEOUT`].
async fn deliver(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    message: Message,
) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, sink.send(message)).await,
        Ok(Ok(()))
    )
}

/// Passes a viewer's request on to the game; the answer is the reason it was refused.
fn take_request(hub: &Hub, viewer: u64, controls: bool, text: &str) -> Option<Answer> {
    let request = match Request::parse(text) {
        Ok(request) => request,
        Err(error) => return Some(Answer::error(error)),
    };
    if !controls {
        return Some(Answer::error(BadRequest::NoControls));
    }
    if let Request::Buttons { buttons } = request {
        hub.hold(viewer, buttons);
        return None;
    }
    hub.send(Command { viewer, request })
        .err()
        .map(Answer::error)
}
