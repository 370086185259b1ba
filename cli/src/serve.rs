//! `lastbite serve`: the HTTP API and the explorer page on a local port (the server is
//! `lastbite_web`; this parses the flags, binds and waits for Ctrl-C).

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

/// Arguments of `lastbite serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The address to listen on (loopback unless you say otherwise).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// The most states (and .efg nodes and outcomes) one request may ask for; requests
    /// giving none get this budget.
    #[arg(long, default_value_t = 10_000_000)]
    max_states: u64,
    /// The most memory, in GiB, one request's tables may take (`memory_gib`: cookie
    /// tables, the dinner's lean solver); requests giving none get this budget.
    #[arg(long, value_name = "GIB", default_value_t = 2)]
    max_memory_gib: u64,
    /// The most seconds of one core one request's work may be estimated at before it
    /// runs (`max_seconds`: refused 422 over it); requests giving none get this budget.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    max_seconds: u64,
    /// Seconds one computation may run before it is cancelled (answered 422).
    #[arg(long, default_value_t = 30.0)]
    timeout: f64,
    /// Computations that may run at once; more wait in the queue.
    #[arg(long, default_value_t = 16)]
    jobs: usize,
    /// Requests that may wait for a computation slot at once; one more is answered 503
    /// (busy) with Retry-After.
    #[arg(long, default_value_t = 256)]
    queue: usize,
    /// Seconds a request waits for a computation slot before it is answered 503 with
    /// Retry-After.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    queue_wait: f64,
    /// Seconds a client may take to send a request's headers (else the connection is
    /// closed), and then its body (else 408).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    read_timeout: f64,
    /// Seconds a client may read nothing of its answer before its connection is closed
    /// (the answer dropped).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    write_timeout: f64,
    /// The most MiB of computed answers that may wait for clients to read them; over it,
    /// new computations are answered 503 (busy) with Retry-After.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    max_held_mib: usize,
    /// Another host name the server answers to (repeatable): requests naming any other
    /// Host than loopback, localhost and the bound address are refused (DNS rebinding).
    #[arg(long, value_name = "HOST")]
    allow_host: Vec<String>,
    /// A secret every API call must carry; off loopback one is made and printed in the
    /// page's URL when none is given.
    #[arg(long)]
    token: Option<String>,
}

/// A fresh random token (128 bits from the system's random source, as hex).
fn new_token() -> anyhow::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .context("cannot read /dev/urandom to make a token (give one with --token)")?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Serves until Ctrl-C (or SIGTERM), then cancels the computations running and exits.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    for (flag, seconds) in [
        ("--timeout", args.timeout),
        ("--queue-wait", args.queue_wait),
        ("--read-timeout", args.read_timeout),
        ("--write-timeout", args.write_timeout),
    ] {
        if !(seconds.is_finite() && seconds > 0.0 && seconds < 1e9) {
            anyhow::bail!("{flag} {seconds} must be a positive number of seconds");
        }
    }
    if args.jobs == 0 {
        anyhow::bail!("--jobs must be at least 1");
    }
    if args
        .token
        .as_deref()
        .is_some_and(|t| t.is_empty() || !t.bytes().all(|b| b.is_ascii_graphic()))
    {
        anyhow::bail!("--token must be printable ASCII without spaces");
    }
    let mut config = lastbite_web::Config {
        max_states: args.max_states,
        max_memory_gib: args.max_memory_gib,
        max_seconds: args.max_seconds,
        timeout: Duration::from_secs_f64(args.timeout),
        jobs: args.jobs,
        queue: args.queue,
        queue_wait: Duration::from_secs_f64(args.queue_wait),
        read_timeout: Duration::from_secs_f64(args.read_timeout),
        write_timeout: Duration::from_secs_f64(args.write_timeout),
        max_held_bytes: args.max_held_mib.saturating_mul(1 << 20),
        allow_hosts: args.allow_host.clone(),
        token: args.token.clone(),
        ..lastbite_web::Config::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
            .await
            .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
        let addr: SocketAddr = listener.local_addr()?;
        // Beyond loopback anyone on the network could compute here: require a token.
        if !addr.ip().is_loopback() && config.token.is_none() {
            config.token = Some(new_token()?);
        }
        let host = if addr.ip().is_ipv6() {
            format!("[{}]", addr.ip())
        } else {
            addr.ip().to_string()
        };
        let url = match &config.token {
            Some(t) => format!("http://{host}:{}/?token={t}", addr.port()),
            None => format!("http://{host}:{}/", addr.port()),
        };
        println!("lastbite serving on {url} (Ctrl-C stops)");
        if args.open {
            // Best effort: a machine without a browser still serves.
            let _ = std::process::Command::new("xdg-open").arg(&url).spawn();
        }
        lastbite_web::serve(listener, config, lastbite_web::shutdown_signal())
            .await
            .context("the server stopped")?;
        eprintln!("lastbite: stopped");
        anyhow::Ok(())
    })?;
    // The computations were cancelled at shutdown and stop within a second; none holds
    // the exit longer.
    runtime.shutdown_timeout(Duration::from_secs(1));
    Ok(ExitCode::SUCCESS)
}
