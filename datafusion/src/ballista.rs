//! The IRI functions on Ballista: a standalone cluster in this process, and the
//! processes of a real one.
//!
//! Ballista ships a plan to its scheduler and executors as protobuf, where a scalar
//! UDF is only a name; each looks the name up in its own function registry. So the
//! functions must be registered where the plan is planned and where it runs:
//! [`standalone`] builds one `SessionState` with the functions and hands it to both
//! the scheduler and the executor (`standalone_with_state`). A real cluster is
//! Ballista's own scheduler and executor processes ([`scheduler_main`],
//! [`executor_main`]: `iri-sql scheduler`, `iri-sql executor`), given the functions
//! through Ballista's own hooks (`SchedulerConfig::override_session_builder`,
//! `ExecutorProcessConfig::override_function_registry`) and parsed from Ballista's
//! own flags; [`remote`] is the client. The stock `ballista-scheduler` and
//! `ballista-executor` binaries do not know the functions.
//!
//! A list (`tables::text_list`) is a table and a scan of this crate, which
//! Ballista's protobuf does not know either: each process is given the codecs of
//! `crate::codec` too, through Ballista's own hooks again (the client's and the
//! standalone cluster's `SessionConfig`, `with_ballista_logical_extension_codec` and
//! `with_ballista_physical_extension_codec`; `SchedulerConfig` and
//! `ExecutorProcessConfig`, `override_logical_codec` and `override_physical_codec`).
//! The executors open the list by its absolute path: it must be readable there.

use crate::codec::{ListLogicalCodec, ListPhysicalCodec};
use ballista::prelude::{SessionConfigExt, SessionContextExt};
use ballista_core::config::LogRotationPolicy;
use ballista_core::error::BallistaError;
use ballista_core::registry::BallistaFunctionRegistry;
use clap::Parser;
use datafusion::execution::{SessionState, SessionStateBuilder};
use datafusion::prelude::{SessionConfig, SessionContext};
use std::ffi::OsString;
use std::net::SocketAddr;
use std::sync::Arc;

/// `config` with the codecs of `crate::codec`, which the client, and a standalone
/// cluster's scheduler and executor, take from their `SessionConfig`.
fn with_list_codecs(config: SessionConfig) -> SessionConfig {
    config
        .with_ballista_logical_extension_codec(Arc::new(ListLogicalCodec::default()))
        .with_ballista_physical_extension_codec(Arc::new(ListPhysicalCodec::default()))
}

/// A context running its queries on a standalone Ballista cluster of
/// `parallelism` task slots, with the IRI functions registered on the client, the
/// scheduler and the executor, and the codecs that carry a list to them.
pub async fn standalone(parallelism: usize) -> datafusion::error::Result<SessionContext> {
    let config = with_list_codecs(SessionConfig::new_with_ballista())
        .with_target_partitions(parallelism.max(1))
        .with_ballista_standalone_parallelism(parallelism.max(1))
        .with_information_schema(true);
    let mut state = SessionStateBuilder::new()
        .with_config(config)
        .with_default_features()
        .build();
    crate::register_state(&mut state)?;
    // The scheduler and the executor get `state` as it is. The client's own state
    // is rebuilt by `upgrade_for_ballista`, whose `with_scalar_functions` replaces
    // the list with Ballista's defaults (Ballista 55): register the functions again
    // on the client, or the SQL planner does not know them.
    let ctx = SessionContext::standalone_with_state(state).await?;
    crate::register(&ctx);
    Ok(ctx)
}

/// The session state a scheduler plans with: Ballista's default (its optimizer
/// rules, its functions) and the IRI functions, whose names in a submitted logical
/// plan the scheduler resolves here before it cuts the plan into stages.
pub fn scheduler_session_state(config: SessionConfig) -> datafusion::error::Result<SessionState> {
    let mut state = ballista_core::utils::default_session_builder(config)?;
    crate::register_state(&mut state)?;
    Ok(state)
}

/// The registry an executor finds a task's functions in: DataFusion's and the IRI
/// functions (under their names and aliases), for the plans the scheduler sends as
/// protobuf, where a scalar function is only its name.
pub fn executor_function_registry() -> BallistaFunctionRegistry {
    let mut registry = BallistaFunctionRegistry::default();
    for f in crate::udf::udfs() {
        for name in std::iter::once(f.name()).chain(f.aliases().iter().map(String::as_str)) {
            registry
                .scalar_functions
                .insert(name.to_string(), f.clone());
        }
    }
    registry
}

/// A context that submits its queries to the Ballista scheduler at `scheduler`
/// (`HOST:PORT`, or a URL `df://HOST:PORT`), planning with `partitions` partitions.
/// The scheduler and its executors must carry the IRI functions and the codecs of
/// `crate::codec`: started with [`scheduler_main`] and [`executor_main`] (`iri-sql
/// scheduler`, `iri-sql executor`).
pub async fn remote(
    scheduler: &str,
    partitions: Option<usize>,
) -> datafusion::error::Result<SessionContext> {
    let url = if scheduler.contains("://") {
        scheduler.to_string()
    } else {
        format!("df://{scheduler}")
    };
    let mut config =
        with_list_codecs(SessionConfig::new_with_ballista()).with_information_schema(true);
    if let Some(n) = partitions {
        config = config.with_target_partitions(n.max(1));
    }
    let mut state = SessionStateBuilder::new()
        .with_config(config)
        .with_default_features()
        .build();
    crate::register_state(&mut state)?;
    let ctx = SessionContext::remote_with_state(&url, state).await?;
    // As in `standalone`: the client's state is rebuilt with Ballista's functions.
    crate::register(&ctx);
    Ok(ctx)
}

/// Logs as Ballista's own binaries log: `RUST_LOG`, or the process's
/// `--log-level-setting`; to the standard error, or to files in `--log-dir`
/// rotated as `--log-rotation-policy` says.
fn init_logging(
    level: &str,
    log_dir: Option<&str>,
    rotation: LogRotationPolicy,
    file_prefix: &str,
    thread_info: bool,
) {
    use tracing_subscriber::EnvFilter;
    let filter = std::env::var(EnvFilter::DEFAULT_ENV).unwrap_or_else(|_| level.to_string());
    let builder = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_thread_names(thread_info)
        .with_thread_ids(thread_info)
        .with_env_filter(EnvFilter::new(filter));
    match log_dir {
        Some(dir) => {
            use tracing_appender::rolling::{self, Rotation};
            let rotation = match rotation {
                LogRotationPolicy::Minutely => Rotation::MINUTELY,
                LogRotationPolicy::Hourly => Rotation::HOURLY,
                LogRotationPolicy::Daily => Rotation::DAILY,
                LogRotationPolicy::Never => Rotation::NEVER,
            };
            builder
                .with_writer(rolling::RollingFileAppender::new(
                    rotation,
                    dir,
                    file_prefix,
                ))
                .init();
        }
        None => builder.with_writer(std::io::stderr).init(),
    }
}

/// `iri-sql scheduler [FLAGS]`: Ballista's scheduler process, parsed from Ballista's
/// own scheduler flags (`--bind-host`, `--bind-port`, `--external-host`, ...: `iri-sql
/// scheduler --help`), planning with [`scheduler_session_state`], reading and writing
/// plans with the codecs of `crate::codec`. Runs until killed.
/// `args` are the flags, without the program and subcommand names.
pub async fn scheduler_main(args: Vec<OsString>) -> ballista_core::error::Result<()> {
    use ballista_scheduler::config::{Config, SchedulerConfig};
    let opt = Config::parse_from(std::iter::once(OsString::from("iri-sql scheduler")).chain(args));
    init_logging(
        &opt.log_level_setting,
        opt.log_dir.as_deref(),
        opt.log_rotation_policy,
        &format!(
            "scheduler_{}_{}_{}",
            opt.namespace, opt.external_host, opt.bind_port
        ),
        opt.print_thread_info,
    );
    let addr: SocketAddr = format!("{}:{}", opt.bind_host, opt.bind_port)
        .parse()
        .map_err(|e| {
            BallistaError::Configuration(format!(
                "--bind-host {} --bind-port {}: {e}",
                opt.bind_host, opt.bind_port
            ))
        })?;
    let config: SchedulerConfig = opt.try_into()?;
    let mut config = config.with_override_session_builder(Arc::new(scheduler_session_state));
    config.override_logical_codec = Some(Arc::new(ListLogicalCodec::default()));
    config.override_physical_codec = Some(Arc::new(ListPhysicalCodec::default()));
    let cluster = ballista_scheduler::cluster::BallistaCluster::new_from_config(&config).await?;
    ballista_scheduler::scheduler_process::start_server(cluster, addr, Arc::new(config)).await
}

/// `iri-sql executor [FLAGS]`: Ballista's executor process, parsed from Ballista's
/// own executor flags (`--scheduler-host`, `--scheduler-port`, `--bind-host`,
/// `--bind-port` for the Flight service that serves shuffle data, `--bind-grpc-port`,
/// `--bind-health-port`, `--vcores`, `--work-dir`, ...: `iri-sql executor --help`),
/// with [`executor_function_registry`] and the codecs of `crate::codec`, which
/// decode the list scans of its tasks. Runs until killed or stopped by the
/// scheduler; serves `/healthz` and `/readyz` as Ballista's executor does.
pub async fn executor_main(args: Vec<OsString>) -> ballista_core::error::Result<()> {
    use ballista_executor::config::Config;
    use ballista_executor::executor_process::{start_executor_process, ExecutorProcessConfig};
    let opt = Config::parse_from(std::iter::once(OsString::from("iri-sql executor")).chain(args));
    let health_addr = format!("{}:{}", opt.bind_host, opt.bind_health_port);
    let health_addr: SocketAddr = health_addr.parse().map_err(|e| {
        BallistaError::Configuration(format!("--bind-health-port address {health_addr}: {e}"))
    })?;
    let mut config: ExecutorProcessConfig = opt.try_into()?;
    init_logging(
        &config.special_mod_log_level,
        config.log_dir.as_deref(),
        config.log_rotation_policy,
        &config.log_file_name_prefix(),
        config.print_thread_info,
    );
    config.override_function_registry = Some(Arc::new(executor_function_registry()));
    config.override_logical_codec = Some(Arc::new(ListLogicalCodec::default()));
    config.override_physical_codec = Some(Arc::new(ListPhysicalCodec::default()));
    let (stop_health, health_stopped) = tokio::sync::oneshot::channel();
    let health = ballista_executor::health::spawn_health_server(
        health_addr,
        config.health.clone(),
        health_stopped,
    );
    let result = start_executor_process(Arc::new(config)).await;
    let _ = stop_health.send(());
    if let Ok(Err(e)) = health.await {
        eprintln!("iri-sql executor: the health server stopped with an error: {e}");
    }
    result
}
