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
    /// Seconds one computation may run before it is cancelled (answered 422).
    #[arg(long, default_value_t = 30.0)]
    timeout: f64,
    /// Computations that may run at once; more are answered 503 (busy).
    #[arg(long, default_value_t = 16)]
    jobs: usize,
}

/// Serves until Ctrl-C (or SIGTERM), then finishes the requests in flight.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        anyhow::bail!(
            "--timeout {} must be a positive number of seconds",
            args.timeout
        );
    }
    if args.jobs == 0 {
        anyhow::bail!("--jobs must be at least 1");
    }
    let config = lastbite_web::Config {
        max_states: args.max_states,
        max_memory_gib: args.max_memory_gib,
        timeout: Duration::from_secs_f64(args.timeout),
        jobs: args.jobs,
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
        let host = if addr.ip().is_ipv6() {
            format!("[{}]", addr.ip())
        } else {
            addr.ip().to_string()
        };
        let url = format!("http://{host}:{}/", addr.port());
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
    Ok(ExitCode::SUCCESS)
}
