//! lastbite's HTTP API (and the explorer page it serves): a thin adapter over
//! [`lastbite::api`]. `POST /api/<family>/<command>` takes the command's request JSON and
//! answers its report JSON (the CLI's `--json` document, the same schema), through
//! [`lastbite::api::call`]; `GET /api/schema` lists the endpoints with their schemas. No
//! game logic lives here: the adapter parses, budgets, calls and answers.
//!
//! Every computation runs on tokio's blocking pool, so a slow one never holds up the
//! server's other requests, under this server's state budget (requests asking for more
//! are refused, requests asking for nothing get it) and time budget (the call is
//! cancelled when it runs out). Errors are JSON `{"error": "..."}`, one line: 400 for a
//! bad request, 404 for no such endpoint, 405 for a method a path does not take, 408 for
//! a body that does not arrive in time, 413 for a body over the limit (refused by its
//! `Content-Length` before it is read), 422 for a request refused by a budget (with its
//! size), 500 for the server's own failure (a file it could not use, a library bug), 503
//! with `Retry-After` when every computation slot is taken and the queue is full or the
//! wait for a slot ran out, when answers over [`Config::max_held_bytes`] wait for clients
//! that do not read them, or when the server is shutting down. A computation is cancelled
//! when its time budget runs out, when its client disconnects, and at shutdown.
//! Statuses come from the library's [`lastbite::api::ErrorKind`], in one match.
//!
//! Only its own page and its user can use it: every request must name an allowed host
//! (`Host`: loopback, `localhost`, the bound address or one of [`Config::allow_hosts`];
//! else 403, which stops DNS rebinding), a request from a page (`Origin`) must come from
//! this server's own origin (else 403), an API `POST` must be `application/json` (else
//! 415: a form or `text/plain` post from another site is refused before any work), and
//! with a [`Config::token`] every API call must carry it (`Authorization: Bearer T`; else
//! 401). Every answer carries a Content-Security-Policy (scripts from this server only, no
//! plugins, no framing) and `X-Content-Type-Options: nosniff`; none carries CORS headers.
#![deny(missing_docs)]

mod backpressure;
mod own_errors;
mod running;

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use lastbite::api::{self, serving, Control, ErrorKind};
use serde_json::json;
use tokio::sync::Semaphore;

/// The server's budgets and limits.
#[derive(Debug, Clone)]
pub struct Config {
    /// The most states (and `.efg` nodes and outcomes) one request may ask for; requests
    /// that give no budget get this one.
    pub max_states: u64,
    /// How long one computation may run before it is cancelled.
    pub timeout: Duration,
    /// How many computations may run at once; more wait for a slot (see `queue`).
    pub jobs: usize,
    /// How many requests may wait for a computation slot at once; one more is answered
    /// 503 with `Retry-After` at once.
    pub queue: usize,
    /// How long a request waits for a computation slot before it is answered 503 with
    /// `Retry-After`.
    pub queue_wait: Duration,
    /// How long a client may take to send a request's headers, and then its body; a
    /// slower (or half-open) connection is closed (headers) or answered 408 (body).
    pub read_timeout: Duration,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// How long a write of an answer may wait for its client to read; a client that reads
    /// nothing for this long is disconnected (its answer dropped).
    pub write_timeout: Duration,
    /// The most bytes of computed answers that may wait for their clients to read them;
    /// over it, a new computation is answered 503 with `Retry-After` until they are read
    /// or their connections time out.
    pub max_held_bytes: usize,
    /// The most memory, in GiB, one request's tables may take (`memory_gib`: the cookie
    /// nim and general tables, the dinner's lean solver); requests that give none get
    /// this budget.
    pub max_memory_gib: u64,
    /// The most seconds of one core one request's work may be estimated at
    /// (`max_seconds`); requests that give none get this budget.
    pub max_seconds: u64,
    /// Host names (or addresses) the server answers to besides loopback's and the address
    /// it is bound to.
    pub allow_hosts: Vec<String>,
    /// A secret every API call must carry (`Authorization: Bearer <token>`); required when
    /// the server listens beyond loopback.
    pub token: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_states: 10_000_000,
            timeout: Duration::from_secs(30),
            jobs: 16,
            queue: 256,
            queue_wait: Duration::from_secs(30),
            read_timeout: Duration::from_secs(10),
            max_body: 1 << 20,
            write_timeout: Duration::from_secs(10),
            max_held_bytes: 256 << 20,
            max_memory_gib: 2,
            max_seconds: 30,
            allow_hosts: Vec::new(),
            token: None,
        }
    }
}

struct Shared {
    config: Config,
    slots: Arc<Semaphore>,
    /// Requests waiting for a slot now.
    waiting: AtomicUsize,
    /// `GET /api/schema`'s answer, made once.
    schema: String,
    /// Each command's request fields (which name files, which are budgets).
    fields: Vec<(&'static str, serving::RequestFields)>,
    /// Answers computed and not yet handed to their clients.
    held: backpressure::Held,
    /// The computations running now (a shutdown cancels them all).
    running: running::Running,
}

impl Shared {
    fn new(config: Config) -> Arc<Shared> {
        Arc::new(Shared {
            slots: Arc::new(Semaphore::new(config.jobs)),
            waiting: AtomicUsize::new(0),
            config,
            schema: serving::schema_document(),
            fields: serving::request_fields(),
            held: backpressure::Held::default(),
            running: running::Running::default(),
        })
    }
}

/// An error answer: a status and a one-line message, as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    /// Seconds after which a 503 may be retried (`Retry-After`).
    retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into().replace(['\n', '\r'], " "),
            retry_after: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": self.message }).to_string();
        let mut res = (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response();
        if let Some(s) = self.retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        res
    }
}

/// The path of a command's endpoint: `dinner-solve` is `/api/dinner/solve`,
/// `reproduce` is `/api/reproduce`.
pub fn endpoint(command: &str) -> String {
    serving::endpoint(command)
}

/// The router: the API, the explorer page, and JSON 404s for anything else.
pub fn router(config: Config) -> Router {
    app(Shared::new(config))
}

fn app(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/assets/js/{file}", get(script))
        .route("/assets/style.css", get(style))
        .route("/api/schema", get(schema))
        .route("/api/{family}/{command}", post(family_command))
        .route("/api/{command}", post(plain_command))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(shared.clone(), guard))
        .with_state(shared)
}

/// The Content-Security-Policy of every answer: the page's scripts and styles come from
/// this server only (no inline script can run, whatever text reaches the page), the
/// library's WebAssembly may compile, no plugins, no `<base>`, no framing.
pub const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// Refuses what the server's own page and user would not send, then adds the security
/// headers to whatever is answered.
async fn guard(
    State(shared): State<Arc<Shared>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let mut res = match admit(&shared.config, &req) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    };
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // A token in the page's URL must not leave in a Referer.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    res
}

/// The host name of a `Host` value (`name`, `name:port`, `[v6]:port`), lowercased, or
/// `None` when the value is not one: a name of letters, digits, dots and hyphens (or an
/// IPv6 address in brackets) and an optional decimal port up to 65535. Parsed strictly,
/// so `localhost:80@evil.com` or `[::1` never passes as loopback.
fn host_name(host: &str) -> Option<String> {
    let (name, port) = match host.strip_prefix('[') {
        Some(rest) => {
            let (v6, after) = rest.split_once(']')?;
            v6.parse::<std::net::Ipv6Addr>().ok()?;
            let port = match after {
                "" => None,
                p => Some(p.strip_prefix(':')?),
            };
            (v6, port)
        }
        None => {
            let (name, port) = match host.split_once(':') {
                Some((n, p)) => (n, Some(p)),
                None => (host, None),
            };
            let label = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'.';
            if name.is_empty() || !name.bytes().all(label) {
                return None;
            }
            (name, port)
        }
    };
    if let Some(p) = port {
        let digits = !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit());
        if !digits || p.parse::<u32>().ok()? > 65535 {
            return None;
        }
    }
    Some(name.to_ascii_lowercase())
}

fn host_allowed(config: &Config, name: &str) -> bool {
    let loopback = name == "localhost"
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    loopback
        || config
            .allow_hosts
            .iter()
            .any(|h| host_name(h).as_deref() == Some(name) || h.eq_ignore_ascii_case(name))
}

fn admit(config: &Config, req: &axum::extract::Request) -> Result<(), ApiError> {
    let headers = req.headers();
    let text = |name: header::HeaderName| {
        headers
            .get(&name)
            .map(|v| {
                v.to_str().map_err(|_| {
                    ApiError::new(
                        StatusCode::BAD_REQUEST,
                        format!("the {name} header is not text"),
                    )
                })
            })
            .transpose()
    };
    // A header the checks below read, given twice, could say one thing to them and another
    // to whatever reads it next: refused.
    for name in [
        header::HOST,
        header::ORIGIN,
        header::CONTENT_TYPE,
        header::CONTENT_LENGTH,
        header::AUTHORIZATION,
        header::TRANSFER_ENCODING,
    ] {
        if headers.get_all(&name).iter().nth(1).is_some() {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("the {name} header is given more than once"),
            ));
        }
    }
    let Some(host) = text(header::HOST)? else {
        return Err(ApiError::new(StatusCode::FORBIDDEN, "no Host header"));
    };
    // An absolute target (`POST http://other/api/...`) must name the host the Host header
    // names, which is checked next.
    if let Some(authority) = req.uri().authority() {
        if !authority.as_str().eq_ignore_ascii_case(host) {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "the request's target names host {}, its Host header {}",
                    api::escape(authority.as_str()),
                    api::escape(host)
                ),
            ));
        }
    }
    let Some(name) = host_name(host) else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "the Host header {} is not a host name with an optional port",
                api::escape(host)
            ),
        ));
    };
    if !host_allowed(config, &name) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "host {} is not this server's (loopback, localhost, its address, or a host allowed when it was started)",
                api::escape(host)
            ),
        ));
    }
    if let Some(origin) = text(header::ORIGIN)? {
        if origin != format!("http://{host}") {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "a request from another site ({}) is refused: only this server's page may call it",
                    api::escape(origin)
                ),
            ));
        }
    }
    if !req.uri().path().starts_with("/api/") {
        return Ok(());
    }
    if let Some(token) = &config.token {
        let given = text(header::AUTHORIZATION)?
            .and_then(|a| a.strip_prefix("Bearer "))
            .unwrap_or("");
        if !same_secret(given.as_bytes(), token.as_bytes()) {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "this server needs its token (Authorization: Bearer <token>; the page's URL the server printed carries it)",
            ));
        }
    }
    if req.method() == axum::http::Method::POST {
        let json = text(header::CONTENT_TYPE)?.is_some_and(|t| {
            t.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "send the request as Content-Type: application/json",
            ));
        }
        // A body declared over the limit is refused before any of it is read (and with
        // `Expect: 100-continue`, before the client is told to send it).
        if let Some(length) = text(header::CONTENT_LENGTH)? {
            let limit = config.max_body;
            if length
                .trim()
                .parse::<u64>()
                .map_or(true, |n| n > limit as u64)
            {
                return Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "the request body is over {limit} bytes (Content-Length {})",
                        api::escape(length)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Compares two secrets in time independent of where they differ.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Serves `router(config)` on `listener` until `shutdown` completes, then cancels the
/// computations running (their requests answered 422) and finishes the requests in flight
/// for at most [`SHUTDOWN_GRACE`]. Each connection is HTTP/1.1 with a deadline for each
/// request's headers ([`Config::read_timeout`]): a client that opens a connection and
/// sends nothing, or its headers too slowly, is disconnected; and for each write
/// ([`Config::write_timeout`]): a client that reads nothing of its answer is too.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;
    let mut config = config;
    // The bound address is a name the server answers to.
    if let Ok(addr) = listener.local_addr() {
        config.allow_hosts.push(addr.ip().to_string());
    }
    let (read_timeout, write_timeout) = (config.read_timeout, config.write_timeout);
    let shared = Shared::new(config);
    let app = app(shared.clone());
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of descriptors and the like: wait a moment, keep serving.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        while connections.try_join_next().is_some() {}
        let service = hyper_util::service::TowerToHyperService::new(
            app.clone()
                .map_request(|r: axum::http::Request<hyper::body::Incoming>| r.map(Body::new)),
        );
        let mut stopped = stopped.clone();
        connections.spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(read_timeout)
                .serve_connection(
                    own_errors::OwnErrors::new(
                        backpressure::WriteDeadline::new(TokioIo::new(stream), write_timeout),
                        CSP,
                    ),
                    service,
                );
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = stopped.changed() => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
    }
    shared.running.stop_all();
    let _ = stop.send(true);
    let finished = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(SHUTDOWN_GRACE, finished)
        .await
        .is_err()
    {
        connections.abort_all();
    }
    Ok(())
}

/// How long a shutdown waits for the requests in flight (their computations cancelled,
/// each stops within a second) before it closes their connections.
pub const SHUTDOWN_GRACE: Duration = Duration::from_millis(1500);

const INDEX: &str = include_str!("../assets/index.html");
/// The page's ES modules, by file name.
const MODULES: [(&str, &str); 11] = [
    ("main.js", include_str!("../assets/js/main.js")),
    ("dom.js", include_str!("../assets/js/dom.js")),
    ("format.js", include_str!("../assets/js/format.js")),
    ("transport.js", include_str!("../assets/js/transport.js")),
    ("page.js", include_str!("../assets/js/page.js")),
    ("dinner.js", include_str!("../assets/js/dinner.js")),
    (
        "subtraction.js",
        include_str!("../assets/js/subtraction.js"),
    ),
    ("cookie.js", include_str!("../assets/js/cookie.js")),
    ("tokens.js", include_str!("../assets/js/tokens.js")),
    ("commands.js", include_str!("../assets/js/commands.js")),
    ("wasm.js", include_str!("../assets/js/wasm.js")),
];
const STYLE: &str = include_str!("../assets/style.css");

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
}

async fn page() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX)
}

async fn script(Path(file): Path<String>) -> Response {
    match MODULES.iter().find(|(name, _)| *name == file) {
        Some((_, body)) => asset("text/javascript; charset=utf-8", body).into_response(),
        None => not_found(format!("/assets/js/{file}").parse().unwrap_or_default())
            .await
            .into_response(),
    }
}

async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE)
}

async fn schema(State(shared): State<Arc<Shared>>) -> Response {
    json_response(shared.schema.clone())
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no such endpoint: {} (GET /api/schema lists them)",
            api::escape(uri.path())
        ),
    )
}

async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} is not answered at {} (the API takes POST, the page GET)",
            api::escape(method.as_str()),
            api::escape(uri.path())
        ),
    )
}

async fn family_command(
    State(shared): State<Arc<Shared>>,
    Path((family, command)): Path<(String, String)>,
    uri: axum::http::Uri,
    body: Body,
) -> Result<Response, ApiError> {
    let format = format_of(&uri)?;
    run(shared, &format!("{family}-{command}"), format, body).await
}

async fn plain_command(
    State(shared): State<Arc<Shared>>,
    Path(command): Path<String>,
    uri: axum::http::Uri,
    body: Body,
) -> Result<Response, ApiError> {
    let format = format_of(&uri)?;
    run(shared, &command, format, body).await
}

/// What a call asks for: its report (in JSON, or an export format: `?format=latex`,
/// `tikz`, ...: [`api::Format`]), or only its cost (`?estimate`: [`api::estimate`]).
#[derive(Clone, Copy)]
enum Answer {
    Report(Option<api::Format>),
    Estimate,
}

/// The [`Answer`] a call's query asks for; no other query parameter is taken.
fn format_of(uri: &axum::http::Uri) -> Result<Answer, ApiError> {
    let Some(query) = uri.query().filter(|q| !q.is_empty()) else {
        return Ok(Answer::Report(None));
    };
    let bad = |message: String| ApiError::new(StatusCode::BAD_REQUEST, message);
    match query.split_once('=') {
        None if query == "estimate" => Ok(Answer::Estimate),
        Some(("estimate", "true" | "1")) => Ok(Answer::Estimate),
        Some(("format", name)) if !name.contains('&') => api::Format::parse(name)
            .map(|f| Answer::Report(Some(f)))
            .map_err(|e| bad(e.to_string())),
        _ => Err(bad(format!(
            "unknown query {} (the API takes only format=... or estimate)",
            api::escape(query)
        ))),
    }
}

fn json_response(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A computed answer, counted as held until its client has it.
fn held_response(content_type: &'static str, body: String, held: &backpressure::Held) -> Response {
    (
        [(header::CONTENT_TYPE, content_type)],
        Body::new(backpressure::HeldBody::new(body, held)),
    )
        .into_response()
}

/// Reads, checks and budgets the request, runs the command on the blocking pool, and
/// answers its report.
async fn run(
    shared: Arc<Shared>,
    name: &str,
    answer: Answer,
    body: Body,
) -> Result<Response, ApiError> {
    let Some(&(command, ref fields)) = shared.fields.iter().find(|(c, _)| *c == name) else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no such endpoint: {} (GET /api/schema lists them)",
                api::escape(&endpoint(name))
            ),
        ));
    };
    let limit = shared.config.max_body;
    let read = shared.config.read_timeout;
    let bytes: Bytes = match tokio::time::timeout(read, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(b)) => b,
        Ok(Err(_)) => {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request body is over {limit} bytes"),
            ))
        }
        Err(_) => {
            return Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s",
                    read.as_secs_f64()
                ),
            ))
        }
    };
    let request = budgeted(&shared.config, fields, &bytes)?;
    let format = match answer {
        Answer::Report(format) => format,
        // Under this server's budgets, as the call would be; no slot (no work is done).
        Answer::Estimate => {
            return tokio::task::spawn_blocking(move || api::estimate(command, &request))
                .await
                .map_err(|_| {
                    ApiError::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        format!("internal error in {command} (please report it)"),
                    )
                })?
                .map(|e| json_response(serde_json::to_string(&e).expect("an estimate is JSON")))
                .map_err(|e| ApiError::new(status_of(&e), e.to_string()));
        }
    };
    let slot = queue(&shared).await?;
    let asked = request.clone();
    let cancel = Arc::new(AtomicBool::new(false));
    if !shared.running.start(&cancel) {
        return Err(ApiError {
            retry_after: Some(1),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is shutting down; try again later",
            )
        });
    }
    let _gone = running::CancelOnDrop(cancel.clone());
    let flag = cancel.clone();
    let job = tokio::task::spawn_blocking(move || {
        // The slot is held until the computation really ends, cancelled or not.
        let _slot = slot;
        let ctl = Control::silent().with_cancel(&flag);
        match format {
            None => api::call(command, &request, &ctl),
            Some(f) => api::export(command, &request, f, &ctl),
        }
    });
    let timeout = shared.config.timeout;
    let outcome = match tokio::time::timeout(timeout, job).await {
        Ok(joined) => joined.map_err(|_| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("internal error in {command} (please report it)"),
            )
        })?,
        Err(_) => {
            cancel.store(true, Ordering::Relaxed);
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "refused: {command} ran past this server's time budget of {} s (cancelled)",
                    timeout.as_secs_f64()
                ),
            ));
        }
    };
    match outcome {
        Ok(report) if matches!(format, None | Some(api::Format::Json)) => {
            Ok(held_response("application/json", report, &shared.held))
        }
        // Every other format as text to save or paste, never rendered by a browser.
        Ok(text) => Ok(held_response(
            "text/plain; charset=utf-8",
            text,
            &shared.held,
        )),
        Err(e) => Err(ApiError::new(
            status_of(&e),
            serving::message(&e, &asked, fields, &caps(&shared.config), "this server"),
        )),
    }
}

/// A computation slot: at once when one is free, else after waiting in the queue (at
/// most `queue` requests, each at most `queue_wait`); a full queue, a wait run out, or
/// more answers held for clients that have not read them than `max_held_bytes` is 503
/// with `Retry-After`.
async fn queue(shared: &Arc<Shared>) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    let config = &shared.config;
    let busy = |why: String| ApiError {
        retry_after: Some(config.queue_wait.as_secs().clamp(1, 60)),
        ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, why)
    };
    let held = shared.held.bytes();
    if held > config.max_held_bytes {
        return Err(busy(format!(
            "busy: {} of answers wait for their clients to read them (this server holds at \
             most {}); try again later",
            lastbite::engine::describe_bytes(held as u128),
            lastbite::engine::describe_bytes(config.max_held_bytes as u128)
        )));
    }
    if let Ok(slot) = shared.slots.clone().try_acquire_owned() {
        return Ok(slot);
    }
    /// Counts a request out of the queue however its wait ends (a dropped connection
    /// included).
    struct Waiting<'a>(&'a AtomicUsize);
    impl Drop for Waiting<'_> {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::Relaxed);
        }
    }
    let before = shared.waiting.fetch_add(1, Ordering::Relaxed);
    let _waiting = Waiting(&shared.waiting);
    if before >= config.queue {
        return Err(busy(format!(
            "busy: all {} computation slots are taken and {} requests wait; try again later",
            config.jobs, config.queue
        )));
    }
    match tokio::time::timeout(config.queue_wait, shared.slots.clone().acquire_owned()).await {
        Ok(Ok(slot)) => Ok(slot),
        _ => Err(busy(format!(
            "busy: no computation slot came free within {} s; try again later",
            config.queue_wait.as_secs_f64()
        ))),
    }
}

/// A library error's status, by its kind: refusals by a budget (and cancellations, which
/// here mean the time budget ran out) are 422, the request's faults 400, and the
/// server's own (a file it could not use, a library bug) 500.
fn status_of(e: &api::Error) -> StatusCode {
    match e.kind() {
        ErrorKind::BadRequest => StatusCode::BAD_REQUEST,
        ErrorKind::OverBudget | ErrorKind::Cancelled => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorKind::Io | ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The request as the library will read it: a JSON object, with no file or directory
/// (the server reads and writes none), its size budgets within this server's, and the
/// server's budget where it gave none.
fn budgeted(
    config: &Config,
    fields: &serving::RequestFields,
    bytes: &[u8],
) -> Result<String, ApiError> {
    serving::admit(fields, bytes, &caps(config), "this server").map_err(|r| match r {
        serving::Refusal::BadRequest(m) => ApiError::new(StatusCode::BAD_REQUEST, m),
        serving::Refusal::OverBudget(m) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m),
    })
}

/// This server's budgets, as the library's serving checks take them.
fn caps(config: &Config) -> serving::Caps {
    serving::Caps {
        max_states: config.max_states,
        max_memory_gib: config.max_memory_gib,
        max_seconds: config.max_seconds,
    }
}

/// Resolves when the process gets Ctrl-C (SIGINT) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
